// The ruleset and clock chosen on the home page, written as the project's notation.

const $ = (id) => document.getElementById(id);

export function chosenRules() {
  const parts = [$('preset').value];
  if ($('diagonal').checked) parts.push('diagonal=yes');
  if ($('per-row').checked) parts.push('captures=per-row');
  const size = $('size').value;
  if (size === '6x6') parts.push('rows=6', 'stones=15');
  if (size === '7x6') parts.push('rows=7');
  if ($('lose-at-3').checked) parts.push('lose-at=3');
  if ($('opening').value !== 'free') parts.push(`opening=${$('opening').value}`);
  if ($('niger').checked && ['ninja', 'wikipedia'].includes($('preset').value)) parts.push('place=3');
  return parts.join(',');
}

export function chosenClock() {
  const value = $('clock').value;
  if (value === 'none') return null;
  const [minutes, increment] = value.split('+').map(Number);
  return { initial: minutes * 60, increment };
}

export function watchRulesForm(onChange) {
  for (const id of ['preset', 'diagonal', 'per-row', 'size', 'lose-at-3', 'opening', 'niger', 'clock']) {
    $(id).addEventListener('change', onChange);
  }
  onChange();
}
