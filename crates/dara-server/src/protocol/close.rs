//! Close codes the browser can act on (PROTOCOL.md, "Limits").

/// The connection sent too much: it is not welcome back at this rate.
pub const FLOOD: u16 = 1008;
/// The connection fell behind the game; reconnecting with the last version catches up.
pub const BEHIND: u16 = 4000;
/// The game has ended its life on the server.
pub const GONE: u16 = 4004;
/// No hello in time, or nothing heard for too long.
pub const SILENT: u16 = 4008;
/// The game's record on the server is damaged: it is set apart, served to nobody, and the
/// page stops (reconnecting would only hear this again).
pub const DAMAGED: u16 = 4010;
/// Newer connections to the same seat replaced this one (a third tab or window): the page
/// stops, and says the game goes on in the other.
pub const REPLACED: u16 = 4011;
/// The page speaks another version of the protocol: it must reload, not reconnect.
pub const RELOAD: u16 = 4009;
/// The server is stopping (a deploy, a restart): reconnect at once.
pub const RESTARTING: u16 = 1012;
