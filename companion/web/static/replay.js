// The replay page: a saved game's turns, one at a time, with the board and the cards as they
// stood. The steps come from /games/<id>/replay.json (companion.rules.replaysteps), which has
// hidden steps only once the game is over.
import {
  $, DRAW_ORDER, PAWN_NAMES, boardPieces, boot, cardElement, element, pawnElement, positionParts,
  resultText, variantName,
} from './common.js';

const data = boot();
const board = $('#board');
const squares = new Map();
for (const name of DRAW_ORDER) {
  const cell = element('div', `square${name === 'c1' || name === 'c5' ? ' temple' : ''}`);
  cell.dataset.square = name;
  squares.set(name, cell);
  board.append(cell);
}

let game = null;
let at = 0;          // 0: the start; n: after turn n

const positionAt = (n) => (n === 0 ? game.start : game.steps[n - 1].position);
const ninjasAt = (n) => (n === 0 ? game.ninjas : game.steps[n - 1].ninjas);

function showBoard() {
  const position = positionAt(at);
  const pieces = position ? boardPieces(position.split(' ')[0]) : new Map();
  const ninjas = ninjasAt(at) || {};
  const moved = at > 0 ? (game.steps[at - 1].text.match(/[a-e][1-5]/g) || []) : [];
  const described = [];
  for (const [name, cell] of squares) {
    const kind = pieces.get(name);
    const content = kind ? [pawnElement(kind)] : [];
    for (const [colour, list] of Object.entries(ninjas)) {
      if (list.includes(name)) {
        content.push(element('span', `ninja ninja-${colour}`, 'N'));
        described.push(`${colour}'s Ninja on ${name}`);
      }
    }
    cell.replaceChildren(...content);
    cell.classList.toggle('last-from', moved.length > 0 && moved[0] === name);
    cell.classList.toggle('last-to', moved.length > 1 && moved.slice(1).includes(name));
    if (kind) described.push(`${PAWN_NAMES[kind]} on ${name}`);
  }
  board.setAttribute('aria-label', `The board: ${described.join(', ') || 'empty'}`);
  const parts = position ? positionParts(position) : null;
  const fill = (id, names, turned) => $(`#${id}`).replaceChildren(...names.map((n) => cardElement(n, data.cards, { turned })));
  fill('hand-red', parts ? parts.red : [], false);
  fill('hand-blue', parts ? parts.blue : [], true);
  fill('side-card', parts ? parts.side : [], Boolean(parts) && parts.turn === 'blue');
}

function show() {
  const total = game.steps.length;
  $('#replay-title').textContent = `Game ${data.id}: ${variantName(data.names, game.mode)}`;
  $('#replay-step').textContent = at === 0 ? `The start (${total} turns)` : `Turn ${at} of ${total}: ${game.steps[at - 1].words}`;
  if (game.complete) showBoard();
  for (const item of $('#log').children) item.classList.toggle('current', Number(item.value) === at);
  $('#first').disabled = $('#prev').disabled = at === 0 || !game.complete;
  $('#next').disabled = $('#last').disabled = at === total || !game.complete;
  const banner = $('#replay-result');
  banner.hidden = !(game.result && at === total);
  banner.textContent = resultText(game.result_words);
}

function go(n) {
  at = Math.max(0, Math.min(game.steps.length, n));
  show();
}

async function load() {
  const response = await fetch(`/games/${data.id}/replay.json`, { cache: 'no-store' });
  const answer = await response.json();
  if (!response.ok) {
    $('#replay-step').textContent = answer.error || `${response.status}`;
    return;
  }
  game = answer;
  $('#log').replaceChildren(...game.steps.map((s) => {
    const li = element('li', `by-${s.seat || 'both'}`);
    li.value = s.n;
    const link = element('button', 'link-button', s.words);
    link.type = 'button';
    link.addEventListener('click', () => go(s.n));
    li.append(link);
    return li;
  }));
  const abandoned = game.result && game.result.how === 'abandoned';
  $('#replay-note').textContent = game.complete ? 'Arrow keys step through the turns.'
    : abandoned ? 'This game was abandoned before its end: its hidden moves stay hidden, and only its public turns are shown.'
      : 'This game is still being played and has hidden moves: the boards and the hidden steps show once it is over.';
  go(game.complete ? game.steps.length : 0);
}

$('#first').addEventListener('click', () => go(0));
$('#prev').addEventListener('click', () => go(at - 1));
$('#next').addEventListener('click', () => go(at + 1));
$('#last').addEventListener('click', () => go(game.steps.length));
document.addEventListener('keydown', (e) => {
  if (!game || !game.complete) return;
  if (e.key === 'ArrowLeft') go(at - 1);
  if (e.key === 'ArrowRight') go(at + 1);
});
load();
