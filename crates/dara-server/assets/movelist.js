// The move list of the game page and the analysis board: two turns a line under the line's
// number, each a button that shows the board after it, the one shown marked current.
// `decorate(button, ply)` may add to a button (the review's marks).
export function renderMoveList(list, moves, shown, onView, decorate = () => {}) {
  // The focus, if it was in the list, follows the position shown.
  const hadFocus = list.contains(document.activeElement);
  list.replaceChildren();
  for (let i = 0; i < moves.length; i += 2) {
    const li = document.createElement('li');
    const number = document.createElement('span');
    number.className = 'number';
    number.textContent = `${i / 2 + 1}.`;
    li.appendChild(number);
    for (let ply = i + 1; ply <= Math.min(i + 2, moves.length); ply++) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'move';
      button.dataset.ply = String(ply);
      button.textContent = moves[ply - 1];
      decorate(button, ply);
      if (ply === shown) button.setAttribute('aria-current', 'true');
      button.addEventListener('click', () => onView(ply));
      li.appendChild(button);
    }
    list.appendChild(li);
  }
  if (hadFocus) (list.querySelector('[aria-current="true"]') || list.querySelector('button'))?.focus();
}
