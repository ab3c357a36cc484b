// The move list of the game page and the analysis board: a line a move (pale's turn and dark's
// answer) under its number as the record writes it (numbering.js), each turn a button that
// shows the board after it, the one shown marked current. `numbers` are the turns' numbers
// (moveNumbers); `decorate(button, ply)` may add to a button (the review's marks).
export function renderMoveList(list, moves, numbers, shown, onView, decorate = () => {}) {
  // The focus, if it was in the list, follows the position shown.
  const hadFocus = list.contains(document.activeElement);
  list.replaceChildren();
  let li = null;
  moves.forEach((text, i) => {
    const ply = i + 1;
    const { number, label } = numbers[i];
    if (!li || li.dataset.number !== String(number)) {
      li = document.createElement('li');
      li.dataset.number = String(number);
      const span = document.createElement('span');
      span.className = 'number';
      span.textContent = label;
      li.appendChild(span);
      list.appendChild(li);
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'move';
    button.dataset.ply = String(ply);
    button.textContent = text;
    decorate(button, ply);
    if (ply === shown) button.setAttribute('aria-current', 'true');
    button.addEventListener('click', () => onView(ply));
    li.appendChild(button);
  });
  if (hadFocus) (list.querySelector('[aria-current="true"]') || list.querySelector('button'))?.focus();
}
