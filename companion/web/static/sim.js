// The simulation page: the mat as it lies on the table, played with the mouse.
//
// The mat senses presence only, so which pawn stands where is this page's own knowledge,
// like a player's eyes: every pawn of the box is on a square, in the hand (lifted, on no
// switch) or in a reserve beside the mat. Clicking a pawn on the mat lifts it (POST
// /sim/lift); clicking an empty square puts the selected pawn of the hand there (POST
// /sim/place); dragging does both. Pawns the page has not seen placed (after a reload, or
// from another window) are named from the game's position.
import {
  $, DRAW_ORDER, PAWN_NAMES, boardPieces, boot, element, lastTurnSquares, listen, matText,
  oledRefresher, pawnElement, postJSON, seenNinjaElement, seenNinjas, setupBoard, setupForm, setupText, showCards, showLog,
  showResult, statusLines,
} from './common.js';

const data = boot();
const BOX = ['R', 'r', 'r', 'r', 'r', 'B', 'b', 'b', 'b', 'b', 'W'];
const LONG_PRESS_MS = 1000;
const DRAG_PX = 6;
const RECONCILE_MS = 300;   // how long after the page's own last change to trust the server's switches

const trayOf = (kind) => (kind === 'b' || kind === 'B' ? 'blue' : 'red');
// Every pawn of the box, all in the reserves until the mat says otherwise.
const pawns = BOX.map((kind, id) => ({ id, kind, at: trayOf(kind) }));  // at: square | 'hand' | 'red' | 'blue'
let nextId = pawns.length;
let selected = null;          // the pawn of the hand the next click places
let view = data.view;
let sim = data.sim;
let queue = Promise.resolve();  // lifts and placements reach the switches in click order
let pending = 0;
let lastLocal = 0;
let reconcileTimer = null;

const matEl = $('#mat');
const squareEls = new Map();
const refreshOled = oledRefresher($('#oled'));

const pawnAt = (square) => pawns.find((p) => p.at === square);
const inHand = () => pawns.filter((p) => p.at === 'hand');
const onMat = (pawn) => pawn.at.length === 2;
const noisy = () => $('#noisy').checked;

function positionPieces() {
  if (view.table && view.table.position) return boardPieces(view.table.position.split(' ')[0]);
  return view.setup ? boardPieces(setupBoard(view)) : new Map();
}

// Pawns on closed switches the page did not put there get their names from the position;
// pawns on squares the page thinks are full but whose switch is open go back to a reserve.
function adoptSwitches(closed) {
  const known = positionPieces();
  for (const p of pawns) {
    if (onMat(p) && !closed.has(p.at)) p.at = trayOf(p.kind);
  }
  for (const square of closed) {
    if (pawnAt(square)) continue;
    const kind = known.get(square);
    let pawn = pawns.find((p) => p.kind === kind && (p.at === 'red' || p.at === 'blue'))
      || pawns.find((p) => p.kind === kind && p.at === 'hand');
    if (!pawn) {
      pawn = { id: nextId++, kind: kind || '?', at: square };
      pawns.push(pawn);
    }
    pawn.at = square;
  }
  if (selected && selected.at !== 'hand') selected = inHand()[0] || null;
}

function scheduleReconcile() {
  clearTimeout(reconcileTimer);
  const wait = Math.max(0, lastLocal + RECONCILE_MS - Date.now());
  reconcileTimer = setTimeout(() => {
    if (pending) return;
    adoptSwitches(new Set(sim.pawns));
    render();
  }, wait);
}

function send(path, square) {
  pending += 1;
  const body = { square, noisy: noisy() };
  queue = queue.then(() => postJSON(path, body)).then((state) => { sim = state; }, (err) => {
    $('#mat-state').textContent = `Not done: ${err.message}`;
  }).finally(() => {
    pending -= 1;
    lastLocal = Date.now();
    scheduleReconcile();
  });
  lastLocal = Date.now();
}

// -- the player's hands ----------------------------------------------------------------------

function lift(square) {
  const pawn = pawnAt(square);
  if (!pawn) return;
  pawn.at = 'hand';
  selected = pawn;
  send('/sim/lift', square);
  render();
}

function place(square, pawn = selected) {
  if (!pawn || pawnAt(square)) return;
  pawn.at = square;
  send('/sim/place', square);
  selected = inHand()[0] || null;
  render();
}

function pickUp(pawn) {
  pawn.at = 'hand';
  selected = pawn;
  render();
}

function putDown(pawn, tray) {
  if (!pawn) return;
  pawn.at = tray;
  selected = inHand()[0] || null;
  render();
}

function clickSquare(square) {
  if (pawnAt(square)) lift(square);
  else if (selected) place(square);
  else $('#mat-state').textContent = 'Pick up a pawn first: click one in a reserve or on the mat.';
}

// -- drawing ---------------------------------------------------------------------------------

for (const name of DRAW_ORDER) {
  const button = element('button', `square${name === 'c1' || name === 'c5' ? ' temple' : ''}`);
  button.type = 'button';
  button.dataset.square = name;
  button.append(element('span', 'led'), element('span', 'coord', name));
  button.addEventListener('click', () => { if (!dragged()) clickSquare(name); });
  squareEls.set(name, button);
  matEl.append(button);
}

// An LED colour as the page shows it: the hue at full strength, its brightness as opacity
// (the pin map caps real LEDs well below full power, which would look black on screen).
function glow(rgb) {
  const peak = Math.max(...rgb);
  if (!peak) return null;
  const [r, g, b] = rgb.map((c) => Math.round((c * 255) / peak));
  return { colour: `rgb(${r} ${g} ${b})`, strength: Math.min(1, 0.35 + peak / 110) };
}

function paintLight(el, rgb) {
  const light = rgb && glow(rgb);
  el.style.setProperty('--led', light ? light.colour : 'transparent');
  el.style.setProperty('--led-strength', light ? light.strength : 0);
  el.dataset.led = rgb ? rgb.join(',') : '';
}

function pawnButton(pawn) {
  const button = pawnElement(pawn.kind, 'button');
  button.type = 'button';
  button.dataset.pawn = pawn.id;
  button.setAttribute('aria-label', PAWN_NAMES[pawn.kind] || 'Pawn');
  if (pawn.at === 'hand') button.setAttribute('aria-pressed', String(pawn === selected));
  button.addEventListener('click', () => {
    if (dragged()) return;
    if (pawn.at === 'hand') { selected = pawn; render(); } else pickUp(pawn);
  });
  return button;
}

// Where the set-up wants a pawn that is not there yet: its outline.
function ghost(kind) {
  const el = pawnElement(kind);
  el.classList.replace('pawn', 'ghost');
  return el;
}

// Rebuilds a row of pawn buttons only when its pawns or the selection changed, so a button
// is never swapped under the pointer (or the keyboard focus) by an LED update.
function replacePawns(box, list, build) {
  const key = list.map((p) => `${p.id}${p === selected ? '*' : ''}`).join(',');
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...build());
}

function render() {
  const pieces = view.setup ? boardPieces(setupBoard(view)) : null;
  const last = view.setup ? [] : lastTurnSquares(view.table && view.table.log);
  const wrong = new Set((view.mat && view.mat.wrong) || []);
  const closed = new Set(sim.pawns);
  const seen = seenNinjas(view);
  for (const [name, el] of squareEls) {
    const pawn = pawnAt(name);
    const lit = sim.leds[name];
    const ninjas = seen.get(name) || [];
    // Redrawn only when it changes: the LEDs alone refresh the page 20 times a second.
    const piece = pawn ? pawn.kind : pieces && pieces.has(name) ? `ghost ${pieces.get(name)}` : '';
    const shows = `${piece}|${ninjas.join(',')}`;
    if (el.dataset.shows !== shows) {
      el.dataset.shows = shows;
      el.querySelectorAll('.pawn, .ghost, .ninja-seen').forEach((p) => p.remove());
      if (pawn) el.append(pawnElement(pawn.kind));
      else if (piece) el.append(ghost(pieces.get(name)));
      el.append(...ninjas.map(seenNinjaElement));
    }
    paintLight(el, lit);
    el.dataset.pawn = pawn ? pawn.kind : '';
    el.dataset.switch = closed.has(name) ? 'closed' : 'open';
    el.classList.toggle('wrong', wrong.has(name));
    // The last turn: where it started (a faint ring) and where it went (a bold one).
    el.classList.toggle('last-from', last.length > 0 && last[0] === name);
    el.classList.toggle('last-to', last.length > 1 && last.slice(1).includes(name));
    const what = [pawn ? PAWN_NAMES[pawn.kind] || 'a pawn' : 'empty',
      ...ninjas.map((c) => `${c === 'red' ? 'Red' : 'Blue'}'s Ninja, seen`)].join(', ');
    el.setAttribute('aria-label', `${name}: ${what}${lit ? ', lit' : ''}`);
  }
  paintLight($('#edge-red'), sim.edges.red);
  paintLight($('#edge-blue'), sim.edges.blue);

  const wind = view.game && view.game.variant === 'wind';
  for (const tray of ['red', 'blue']) {
    const box = $(`#reserve-${tray} .tray-pawns`);
    // The Wind Spirit waits in Red's reserve, shown only when the game uses it.
    const here = pawns.filter((p) => p.at === tray && (p.kind !== 'W' || wind));
    replacePawns(box, here, () => here.map(pawnButton));
    const drop = $(`#reserve-${tray} .tray-drop`);
    drop.disabled = !selected;
    drop.textContent = selected ? `Put the ${PAWN_NAMES[selected.kind] || 'pawn'} down here` : 'Put down here';
  }
  const hand = inHand();
  replacePawns($('#in-hand-pawns'), hand, () => (hand.length ? hand.map(pawnButton)
    : [element('span', 'hint', 'Nothing: click a pawn to lift it.')]));
  $('#in-hand').classList.toggle('holding', hand.length > 0);
  document.body.dataset.pending = String(pending);
}

function showView(next, first = false) {
  const was = first ? null : view.game;
  view = next;
  document.body.dataset.version = view.version;
  document.body.dataset.status = view.game ? view.game.status : 'none';
  const [status, sub] = statusLines(view, data.names);
  $('#status').textContent = status;
  $('#substatus').textContent = sub;
  showResult(view);
  showCards(view, data.cards);
  const setup = $('#setup');
  setup.hidden = !view.setup;
  setup.replaceChildren(...setupText(view).map((line) => element('p', '', line)));
  $('#lay-out').hidden = !view.setup;
  $('#mat-state').textContent = matText(view.mat, view.unsaved);
  showPrompt(view.mat && view.mat.prompt);
  showLog($('#log'), view.table && view.table.log, view.table && view.table.moves);
  // The form opens when there is nothing to play and folds away once a game is dealt; in
  // between, it stays as the user left it.
  const now = view.game;
  if (!was || !now || was.id !== now.id || was.status !== now.status) {
    $('#new-game-box').open = !now || now.status === 'finished';
  }
  $('#oled').alt = (view.oled || []).join(' / ');
  render();
}

// A question from the companion: its text, and each answer written under its button.
// Otherwise what the OLED says a button does now ("A: allow  B: refuse" while a phone asks for
// a held seat, "C: next page" under a join code) is written under that button.
const BUTTON_HINT = /\b([ABC]): ([^:]+?)(?=\s+(?:Hold )?[ABC]:|$)/g;

function showPrompt(prompt) {
  const box = $('#prompt');
  box.hidden = !prompt;
  const answers = { A: '', B: '', C: '', ...(view.buttons || {}) };
  for (const line of view.oled || []) {
    for (const [, button, meaning] of line.matchAll(BUTTON_HINT)) {
      answers[button] = line.slice(0, line.indexOf(`${button}:`)).trim().endsWith('Hold')
        ? `hold: ${meaning.trim()}` : meaning.trim();
    }
  }
  if (prompt) {
    for (const [card, button] of Object.entries(prompt.buttons || {})) answers[button] = card;
    if (prompt.takeback) answers.C = 'take back';
    box.replaceChildren(element('p', 'question', prompt.question),
      element('p', 'hint', 'Answer with the buttons under the screen, or on the phone.'));
  }
  for (const button of document.querySelectorAll('.hw-button')) {
    $('.hw-caption', button).textContent = answers[button.dataset.button];
  }
}

function showSim(next) {
  sim = next;
  if (!pending && Date.now() - lastLocal > RECONCILE_MS) adoptSwitches(new Set(sim.pawns));
  else scheduleReconcile();
  render();
}

// The phones' links and QR codes: a seat's join URL changes once a phone has used it.
function showLinks(urls) {
  for (const [target, url] of Object.entries(urls)) {
    const link = $(`a[data-link="${target}"]`);
    if (link.dataset.url === url) continue;
    link.dataset.url = url;
    link.href = url;
    $('img', link).src = `/sim/qr/${target}.svg?u=${encodeURIComponent(url)}`;
  }
}

// -- dragging --------------------------------------------------------------------------------

let drag = null;       // {pawn, from, x, y, ghost, moved}
let justDragged = false;
const dragged = () => {
  const was = justDragged;
  justDragged = false;
  return was;
};

document.addEventListener('pointerdown', (e) => {
  if (e.button !== 0) return;
  const square = e.target.closest('.square');
  const pawnButtonEl = e.target.closest('button.pawn');
  const pawn = square ? pawnAt(square.dataset.square)
    : pawnButtonEl ? pawns.find((p) => p.id === Number(pawnButtonEl.dataset.pawn)) : null;
  if (pawn) drag = { pawn, x: e.clientX, y: e.clientY, ghost: null };
});

document.addEventListener('pointermove', (e) => {
  if (!drag) return;
  if (!drag.ghost) {
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < DRAG_PX) return;
    // The pawn leaves its switch as soon as the hand takes it.
    if (onMat(drag.pawn)) lift(drag.pawn.at);
    else pickUp(drag.pawn);
    drag.ghost = pawnElement(drag.pawn.kind);
    drag.ghost.classList.add('dragging');
    document.body.append(drag.ghost);
  }
  drag.ghost.style.left = `${e.clientX}px`;
  drag.ghost.style.top = `${e.clientY}px`;
});

document.addEventListener('pointerup', (e) => {
  if (!drag) return;
  const { pawn, ghost } = drag;
  drag = null;
  if (!ghost) return;
  ghost.remove();
  justDragged = true;
  setTimeout(() => { justDragged = false; }, 0);
  const target = document.elementFromPoint(e.clientX, e.clientY);
  const square = target && target.closest('.square');
  const tray = target && target.closest('[data-tray]');
  if (square && !pawnAt(square.dataset.square)) place(square.dataset.square, pawn);
  else if (tray) putDown(pawn, tray.dataset.tray);
});

// -- the companion's buttons, the trays, the helpers -----------------------------------------

for (const button of document.querySelectorAll('.hw-button')) {
  let downAt = 0;
  let timer = null;
  button.addEventListener('pointerdown', () => {
    downAt = Date.now();
    timer = setTimeout(() => button.classList.add('long'), LONG_PRESS_MS);
  });
  button.addEventListener('click', async (e) => {
    clearTimeout(timer);
    button.classList.remove('long');
    const long = e.shiftKey || (downAt > 0 && Date.now() - downAt > LONG_PRESS_MS);
    downAt = 0;
    button.disabled = true;
    try {
      sim = await postJSON('/sim/button', { button: button.dataset.button, long });
    } catch (err) {
      $('#mat-state').textContent = `Not done: ${err.message}`;
    } finally {
      button.disabled = false;
    }
  });
}

for (const drop of document.querySelectorAll('.tray-drop')) {
  drop.addEventListener('click', () => putDown(selected, drop.dataset.drop));
}

// Lays the set-up out as a player would: the last game's pawns that stand where the set-up
// wants none of their kind go back to their reserves first (a master left on c3 must go
// home), then every square the set-up still needs gets its pawn from the reserves.
$('#lay-out').addEventListener('click', () => {
  if (!view.setup) return;
  const want = boardPieces(setupBoard(view));
  for (const pawn of pawns.filter(onMat)) {
    if (want.get(pawn.at) === pawn.kind) continue;
    const square = pawn.at;
    pawn.at = trayOf(pawn.kind);
    send('/sim/lift', square);
  }
  for (const [square, kind] of want) {
    if (pawnAt(square)) continue;
    const pawn = pawns.find((p) => p.kind === kind && (p.at === 'hand' || p.at === 'red' || p.at === 'blue'));
    if (pawn) place(square, pawn);
  }
  selected = inHand()[0] || null;
  render();
});

setupForm($('#new-game'), data.ways, () => view);
adoptSwitches(new Set(sim.pawns));
showView(view, true);
listen('/sim/events', { view: showView, sim: showSim, oled: refreshOled, links: showLinks });
