// The pages' one way to ask the server over HTTP: a JSON body posted, the JSON answer back, and
// a refusal as an Error whose message is the server's reason worded in the page's language from
// its code (and whose `status` is the HTTP status, and `code` the server's code: none where the
// answer came from something else in the way, such as a proxy with its server away).
import { errorText, t } from './i18n.js';

export async function postJson(path, body, signal) {
  const response = await fetch(path, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal,
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(answer.code || answer.error ? errorText(answer) : t('home.server-said-no'));
    error.status = response.status;
    error.code = answer.code;
    throw error;
  }
  return answer;
}
