// The game page drawn from its state: every part of the page that changes is set here, from
// `state` alone (game-state.js), so drawing twice draws the same. `page` gives the board, whether
// a turn is on its way (`sending()`), whether a stone's capture is being chosen (`choosing()`),
// `view(ply)` for the move list and the review to show a position, and `review` (review.js, once
// a review is asked for).
import { parsePosition, moveNumbers, moversOf, moveCount } from './notation.js';
import { renderMoveList } from './board.js';
import { t } from './i18n.js';
import { bothSeated, mayPlay, mayPremove, opponentOf, shownPly, quickMessages } from './game-state.js';
import { clockMs, formatMs, presenceText, claimWait, firstMoveText } from './game-clock.js';
import { side, headline, playerName, resultText, saidLine } from './game-words.js';

const $ = (id) => document.getElementById(id);

export function render(state, page) {
  const { game } = state;
  if (!game) return;
  // The tab says when the person's turn has come, as lichess's does.
  const yours = !!game.you && !game.end && bothSeated(game) && game.pos.side === game.you;
  document.title = yours ? `${t('game.title-your-turn')} · Dara — ${game.rules}` : `Dara — ${game.rules}`;
  $('rules').textContent = game.rules;
  const browsing = state.viewing !== null;
  const fen = browsing ? game.positions[state.viewing] : game.pos.fen;
  renderPlayers(state, parsePosition(fen));
  // The player's own panel goes nearest the board's bottom edge, unless the board was flipped.
  const flipped = (game.you === 'black') !== state.turnedRound;
  $('players').classList.toggle('flipped', flipped);
  $('flip').setAttribute('aria-pressed', String(state.turnedRound));
  renderMute(page.muted());
  const waiting = page.sending() || state.awaiting !== null;
  const mine = mayPlay(state, page.sending());
  $('phase').textContent = t(`phase.${game.pos.phase}`);
  const quiet = $('quiet');
  // Only once the count matters: from half the limit, after which the game is drawn.
  quiet.hidden = game.pos.quiet_limit === null || game.pos.phase !== 'movement'
    || game.pos.quiet * 2 < game.pos.quiet_limit;
  quiet.textContent = ` · ${t('game.quiet', { quiet: game.pos.quiet, limit: game.pos.quiet_limit })}`;
  const fresh = state.fresh;
  page.board.show({
    fen, legal: browsing ? [] : game.pos.legal, forbidden: browsing ? {} : game.pos.forbidden, closed: browsing ? {} : game.pos.closed, mine, waiting, browsing, flipped,
    lastMove: browsing ? game.moves[state.viewing - 1] || null : game.lastMove,
    fresh: !browsing && fresh && fresh.key === `${game.moves.length} ${game.lastMove}` ? fresh : null,
    premoving: mayPremove(state), premoveSteps: state.premoveSteps.fen === game.pos.fen ? state.premoveSteps.steps : [], own: game.you === 'black' ? 'B' : 'W', premove: browsing ? null : state.premove,
  });
  renderTurn(state, page);
  $('status-note').hidden = !!game.end;
  renderQueue(state);
  const watching = state.presence ? state.presence.watchers : 0;
  $('watchers').hidden = watching === 0;
  $('watchers').textContent = t('game.watchers', { count: watching });
  renderBrowsing(state);
  renderMoves(state, page);
  renderControls(state, mine);
  renderReview(state, page);
  renderQuick(state);
  page.asked?.(state);
}

// The sound switch says the state it is in ("Sound: on"), and is pressed while sounds play: a
// switch named for what it stops ("Mute: off") read as the opposite.
export function renderMute(muted) {
  $('mute').setAttribute('aria-pressed', String(!muted));
  $('mute-state').textContent = t(muted ? 'game.sound-off' : 'game.sound-on');
}

// The headline alone: drawn again when the board starts or stops choosing a capture.
export function renderTurn(state, page) {
  if (!state.game) return;
  $('turn').textContent = headline(state.game, page.choosing(), state.link === 'connected');
}

function renderPlayers(state, pos) {
  const { game } = state;
  $('players').classList.toggle('people', game.opponent !== 'computer');
  for (const colour of ['white', 'black']) {
    const panel = $(`player-${colour}`);
    const letter = colour === 'white' ? 'W' : 'B';
    panel.querySelector('.name').textContent = playerName(game, colour);
    panel.querySelector('.hand').textContent = t('player.in-hand', { count: pos.hand[colour] });
    panel.querySelector('.on-board').textContent = t('player.on-board', { count: [...pos.stones.values()].filter((s) => s === letter).length });
    panel.querySelector('.away').textContent = presenceText(state, colour);
    panel.classList.toggle('to-move', !game.end && game.pos.side === colour);
    const clock = panel.querySelector('.clock');
    clock.hidden = !state.clock;
    if (state.clock) clock.textContent = formatMs(clockMs(state, colour));
    panel.querySelector('.first-move').textContent = firstMoveText(state, colour);
  }
}

// What changes with time alone: the clocks, the absent player's counter, the claim button.
export function renderTick(state) {
  if (!state.game) return;
  for (const colour of ['white', 'black']) {
    const panel = $(`player-${colour}`);
    if (state.clock) panel.querySelector('.clock').textContent = formatMs(clockMs(state, colour));
    panel.querySelector('.first-move').textContent = firstMoveText(state, colour);
    panel.querySelector('.away').textContent = presenceText(state, colour);
  }
  renderClaim(state);
}

function renderClaim(state) {
  const wait = claimWait(state);
  $('claim').hidden = wait === null;
  $('claim').disabled = wait !== null && wait > 0;
  $('claim').textContent = wait ? t('game.claim-in', { seconds: wait }) : t('game.claim');
}

// The computer is busy with other games: how many of their searches come before this one's.
function renderQueue(state) {
  const { game } = state;
  const waiting = state.queueAhead !== null && !game.end && game.seats[game.pos.side].kind === 'computer';
  $('queue').hidden = !waiting;
  if (!waiting) return;
  const n = state.queueAhead;
  $('queue').textContent = n === 0 ? t('queue.next') : t('queue.ahead', { count: n });
}

// Looking at an earlier position: which one, how to come back, and what happened meanwhile.
function renderBrowsing(state) {
  const { game, viewing, unseen } = state;
  const browsing = viewing !== null;
  $('browsing').hidden = !browsing;
  $('prev').disabled = shownPly(state) === 0;
  $('next').disabled = !browsing;
  if (!browsing) return;
  const numbers = moveNumbers(moversOf(game.positions));
  const at = numbers[viewing - 1];
  const what = viewing === 0 ? t('browse.start')
    : t('browse.move', { label: at.label, move: game.moves[viewing - 1], number: at.number, moves: moveCount(numbers) });
  const news = unseen ? ` ${t('browse.news', { count: unseen })}` : '';
  $('browse-note').textContent = `${what}${news}`;
  $('live').textContent = unseen ? t('browse.live-news', { count: unseen }) : t('game.live');
  $('browsing').classList.toggle('news', unseen > 0);
}

// The list, with the review's marks once the engine has gone through the game.
function renderMoves(state, page) {
  const { game } = state;
  const { reviewed } = state.review;
  // review.js came with the review (page.review): its marks go on the list.
  const MARKS = reviewed && page.review.MARKS;
  renderMoveList($('moves'), game.moves, moveNumbers(moversOf(game.positions)), shownPly(state), page.view, (button, ply) => {
    const mark = reviewed && reviewed.turns[ply - 1] ? reviewed.turns[ply - 1].mark : null;
    if (mark && MARKS[mark].sign) {
      button.classList.add(`mark-${mark}`);
      button.textContent += MARKS[mark].sign;
      button.setAttribute('aria-label', `${game.moves[ply - 1]}, ${t(`mark.${mark}`)}`);
    }
  });
  if (state.viewing === null) $('moves').scrollTop = $('moves').scrollHeight;
}

// Whether this page has asked for the invite link's free seat and not yet heard.
function joining(state) {
  return state.joinAsked && !state.token && !state.game.you;
}

function renderControls(state, mine) {
  const { game } = state;
  const playing = !!game.you && !game.end;
  const seated = bothSeated(game);
  const vsComputer = game.opponent === 'computer';
  const opponent = opponentOf(game.you);
  // A friend's seat waits for the link to be sent; an open table, for anyone from the lobby.
  const waiting = !!game.you && !seated && !game.end;
  $('invite').hidden = !(waiting && game.opponent === 'friend');
  document.documentElement.classList.remove('before-snapshot', 'inviting', 'inviting-black', 'inviting-clock');
  // The link's free seat asked for: the table is shown once it is this visitor's (or refused).
  if (!joining(state)) document.documentElement.classList.remove('seat-unknown');
  $('seeking').hidden = !(waiting && game.opponent === 'open');
  $('invite-link').value = `${location.origin}/g/${state.gameId}`;
  // Not while the invite link's seat is being asked for: the note would come and go at once.
  $('watch-note').hidden = !!game.you || joining(state);
  $('resign').hidden = !playing || !seated;
  // Until both sides have made their first move the game may be called off without a result
  // (the table decides, and refuses a late one as too-late-to-abort).
  $('abort').hidden = !playing || !seated || game.moves.length >= 2;
  // The computer plays every game out: no draw is offered to it. Before both first moves a
  // game is called off with Abort rather than drawn (and on a phone the row keeps to one line).
  const mayOffer = playing && seated && !vsComputer && game.moves.length >= 2;
  $('draw').hidden = !mayOffer || game.drawOffer === game.you || state.confirmingDraw;
  $('draw-confirm').hidden = !mayOffer || !state.confirmingDraw || !!game.drawOffer;
  $('draw').textContent = game.drawOffer === opponent ? t('game.accept-draw') : t('game.draw');
  $('decline').hidden = !playing || game.drawOffer !== opponent;
  $('withdraw').hidden = !playing || game.drawOffer !== game.you;
  const offer = !game.end && game.drawOffer;
  $('offer-note').hidden = !offer;
  if (offer) {
    $('offer-note').textContent = offer === game.you ? t('game.you-have-offered')
      : game.you ? t('game.opponent-offers') : t('game.offers-draw', { side: side(offer) });
  }
  // Taking back is for a game still going on.
  $('takeback').hidden = !playing || !vsComputer || game.moves.length === 0;
  renderClaim(state);
  $('typed').hidden = !game.you || !!game.end;
  $('typed-input').disabled = !mine;
  renderEnd(state);
}

// The end of the game: result, reason, the record to copy, and a rematch.
function renderEnd(state) {
  const { game } = state;
  $('end').hidden = !game.end;
  if (!game.end) return;
  $('result').textContent = resultText(game.end, game.you);
  $('record').value = game.end.record;
  $('rematch').hidden = !game.you || !!game.rematch;
  $('rematch').textContent = game.rematchOffer && game.rematchOffer !== game.you ? t('game.accept-rematch') : game.rematchOffer === game.you ? t('game.rematch-asked') : t('game.rematch');
  $('rematch').disabled = game.rematchOffer === game.you;
  $('watch-next').hidden = !(game.rematch && !game.you);
  // The game goes to the analysis board in the link's fragment, never to the server. Its
  // result goes too: a record of a game the rules ended is read only with that result.
  const study = new URLSearchParams({ rules: game.rules, start: game.positions[0], moves: game.moves.join(','), result: game.end.result });
  $('analyse-link').href = `/analysis#${study}`;
  if (game.rematch) $('watch-next').href = `/g/${game.rematch}`;
}

// The review, once the engine has gone through the game: the graph's marker and the note
// follow the position shown.
function renderReview(state, page) {
  const { game, review } = state;
  $('review-start').hidden = !game.end || review.reviewed !== null || review.asking;
  if (!review.reviewed) return;
  const shown = shownPly(state);
  const { drawGraph, turnNote, sideNames } = page.review;
  const names = sideNames(game.you, game.opponent);
  drawGraph($('review-graph'), review.reviewed, shown, page.view, names);
  $('review-note').textContent = turnNote(review.reviewed, shown, names);
}

// Quick messages, in a game between people: the last few said (none of the opponent's while
// hidden), and for a player with an opponent seated, the phrases to send and the switch.
function renderQuick(state) {
  const { game } = state;
  $('quick').hidden = !quickMessages(game);
  const speaking = !!game.you && bothSeated(game);
  $('phrases').hidden = !speaking;
  $('hide-said').hidden = !game.you;
  $('hide-said').setAttribute('aria-pressed', String(state.hideOpponent));
  $('hide-said-state').textContent = t(state.hideOpponent ? 'quick.hide-on' : 'quick.hide-off');
  const list = $('said');
  list.replaceChildren(...state.said.map(({ by, phrase }) => {
    const line = document.createElement('li');
    line.textContent = saidLine(game, by, phrase);
    line.className = by === game.you ? 'mine' : 'theirs';
    line.dataset.phrase = phrase;
    return line;
  }));
  list.hidden = state.said.length === 0;
}
