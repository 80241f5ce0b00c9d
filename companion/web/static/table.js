// The public table page: the game as spectators see it, live from /events.
import {
  $, DRAW_ORDER, PAWN_NAMES, boardPieces, boot, element, lastTurnSquares, listen, matText,
  expectedSquares, oledRefresher, pawnElement, resultText, seenNinjaElement, seenNinjas, setupBoard, setupForm, setupText, showCards, showLog,
  postJSON, showResult, statusLines, variantName,
} from './common.js';

const data = boot();
const board = $('#board');
const refreshOled = oledRefresher($('#oled'));
let version = -1;
let current = data.view;
let gamesKey = null;

// The squares are built once; each view only changes their content.
const squares = new Map();
for (const name of DRAW_ORDER) {
  const cell = element('div', `square${name === 'c1' || name === 'c5' ? ' temple' : ''}`);
  cell.dataset.square = name;
  squares.set(name, cell);
  board.append(cell);
}

function showBoard(view) {
  // During set-up the board shows where the pawns go; afterwards, the game's position.
  const text = setupBoard(view) || (view.table && view.table.position.split(' ')[0]);
  const pieces = text ? boardPieces(text) : new Map();
  const last = view.setup ? [] : lastTurnSquares(view.table && view.table.log);
  const wrong = new Set((view.mat && view.mat.wrong) || []);
  const seen = seenNinjas(view);
  const expect = expectedSquares(view, pieces);
  board.style.setProperty('--expect', expect.colour);
  const described = [];
  for (const [name, cell] of squares) {
    const kind = pieces.get(name);
    const ninjas = seen.get(name) || [];
    cell.replaceChildren(...(kind ? [pawnElement(kind)] : []), ...ninjas.map(seenNinjaElement));
    for (const colour of ninjas) described.push(`${colour === 'red' ? 'Red' : 'Blue'}'s Ninja seen on ${name}`);
    cell.classList.toggle('last-from', last.length > 0 && last[0] === name);
    cell.classList.toggle('last-to', last.length > 1 && last.slice(1).includes(name));
    cell.classList.toggle('wrong', wrong.has(name));
    cell.classList.toggle('expect-from', expect.from.includes(name));
    cell.classList.toggle('expect-to', expect.to.includes(name));
    cell.classList.toggle('expect-take', expect.take.includes(name));
    if (kind) described.push(`${PAWN_NAMES[kind]} on ${name}`);
  }
  board.setAttribute('aria-label', described.length ? `The board: ${described.join(', ')}` : 'The board is empty');
}

async function showGames() {
  const response = await fetch('/api/games');
  if (!response.ok) return;
  const games = await response.json();
  const list = $('#games');
  list.replaceChildren(...games.slice(0, 8).map((g) => {
    const item = element('li');
    const when = new Date(g.created * 1000).toLocaleString();
    const variant = variantName(data.names, g.header && g.header.variant);
    item.append(element('span', 'game-title', `#${g.id} ${variant}`),
      element('span', 'game-meta', `${when} · ${g.result ? resultText(g.result_words) : 'not finished'} · ${g.turns ?? '?'} turns`));
    const link = element('a', '', 'Download record');
    link.href = `/games/${g.id}/record.json`;
    link.setAttribute('download', '');
    item.append(link);
    return item;
  }));
  if (!games.length) list.append(element('li', 'hint', 'No games yet.'));
}

// The invite of a game hosted here with another table: fetched when a game starts (the table
// alone may read it: it holds the game's key), shown as a QR code and a short code.
let inviteKey = null;
async function showInvite(view) {
  const key = view.game && view.game.table && view.game.table.length ? view.game.id : null;
  if (key === inviteKey) return;
  inviteKey = key;
  const box = $('#invite');
  box.hidden = true;
  if (key === null) return;
  // The link opens a moment after the game is dealt: until then there is no invite (404).
  let response = null;
  for (let tries = 0; tries < 20 && inviteKey === key; tries += 1) {
    response = await fetch('/api/tables/invite');
    if (response.ok) break;
    await new Promise((resolve) => { setTimeout(resolve, 500); });
  }
  if (!response || !response.ok || inviteKey !== key) return;   // a guest's game, or another since
  const invite = await response.json();
  $('#invite-qr').innerHTML = invite.svg;             // made by the server (segno), not typed
  $('#invite-code').textContent = invite.code;
  box.hidden = false;
}

$('#join-table').addEventListener('submit', async (e) => {
  e.preventDefault();
  const error = $('#join-error');
  error.textContent = '';
  const code = $('#join-code').value.trim();
  if (!code) { error.textContent = 'Type the other table\'s invite (OT1:…).'; return; }
  try {
    await postJSON('/api/tables/join', { code });
    $('#join-code').value = '';
  } catch (err) {
    error.textContent = err.message;
  }
});

function show(view) {
  if (view.version === version) return;
  version = view.version;
  current = view;
  const [status, sub] = statusLines(view, data.names);
  $('#status').textContent = status;
  $('#substatus').textContent = sub;
  showResult(view);
  showBoard(view);
  showCards(view, data.cards);
  const setup = $('#setup');
  setup.hidden = !view.setup;
  setup.replaceChildren(...setupText(view).map((line) => element('p', '', line)));
  const prompt = view.mat && view.mat.prompt;
  $('#mat-state').textContent = prompt ? prompt.question : matText(view.mat, view.unsaved);
  showLog($('#log'), view.table && view.table.log, view.table && view.table.moves);
  $('#oled').alt = (view.oled || []).join(' / ');
  showInvite(view);
  // The list changes when a game starts or ends, not with every move.
  const key = view.game ? `${view.game.id}:${view.game.status}` : 'none';
  if (key !== gamesKey) {
    gamesKey = key;
    showGames();
  }
}

setupForm($('#new-game'), data.ways, () => current);
show(data.view);
listen('/events', { view: show, oled: refreshOled }, { poll: '/api/view' });
