// Shared by the table page and the simulation page: talking to the server, reading positions,
// drawing pawns and cards, describing the game, and the new-game form.

export const FILES = 'abcde';

// Red sits at the bottom, as on the table: rank 5 is drawn first, files a to e left to right.
export const DRAW_ORDER = [];
for (let rank = 5; rank >= 1; rank--) for (const f of FILES) DRAW_ORDER.push(f + rank);

export const PAWN_NAMES = {
  R: 'Red master', r: 'Red student', B: 'Blue master', b: 'Blue student', W: 'Wind Spirit',
};
const PAWN_CLASS = {
  R: 'pawn-red pawn-master', r: 'pawn-red', B: 'pawn-blue pawn-master', b: 'pawn-blue',
  W: 'pawn-spirit',
};

export function boot() {
  return JSON.parse(document.getElementById('boot').textContent);
}

export const $ = (selector, root = document) => root.querySelector(selector);

export function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

export async function postJSON(url, body) {
  const response = await fetch(url, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch { /* an empty or non-JSON answer */ }
  if (!response.ok) throw new Error((data && data.error) || `${response.status} ${response.statusText}`);
  return data;
}

// The lists of a view that grow by a turn at a time: the move log and the moves in words.
const GROWING = ['log', 'moves'];

// A view from a stream, whole again: after the first view of a connection the server sends
// each growing list as the entries since its last view (`log_since`, `moves_since`: keep
// `from` entries, add `turns`). `held` holds this page's lists; returns the whole view.
export function withLog(held, view) {
  const table = view && view.table;
  if (!table) return view;
  const whole = { ...table };
  for (const key of GROWING) {
    const delta = table[`${key}_since`];
    if (!delta) continue;
    whole[key] = ((held && held[key]) || []).slice(0, delta.from).concat(delta.turns);
    delete whole[`${key}_since`];
  }
  return { ...view, table: whole };
}

// The stream's views, each with its whole lists (see withLog).
export function viewHandler(show) {
  let held = null;
  return (view) => {
    const whole = withLog(held, view);
    held = whole && whole.table ? Object.fromEntries(GROWING.map((k) => [k, whole.table[k]])) : null;
    show(whole);
  };
}

const POLL_MS = 2000;          // a page past the streams' cap asks for the view this often
const STREAM_AGAIN_MS = 30000; // ... and tries for a live stream again this often

// An event stream; the browser reconnects by itself and the server sends a full snapshot on
// every connection, so nothing is lost while the badge says so. A stream refused outright (the
// public pages share 8: a ninth is answered 503) is never retried by the browser: with
// ``poll`` (the view's URL) the page then follows the game by asking for the view, says so, and
// tries for a stream again now and then.
export function listen(url, handlers, { poll = null } = {}) {
  const badge = document.getElementById('connection');
  const say = (text, polling = false) => {
    badge.hidden = !text;
    badge.textContent = text || '';
    badge.classList.toggle('polling', polling);
  };
  const handle = Object.fromEntries(Object.entries(handlers).map(
    ([name, fn]) => [name, name === 'view' ? viewHandler(fn) : fn]));
  let polling = null;
  const pollOnce = async () => {
    try {
      const response = await fetch(poll, { cache: 'no-store' });
      if (!response.ok) throw new Error(String(response.status));
      const view = await response.json();
      handle.view(view);
      if (handle.oled) handle.oled(JSON.stringify(view.oled || []));
      say('Many are watching: this page asks for the game every 2 s instead of a live feed.', true);
    } catch {
      say('Connection lost, retrying…');
    }
  };
  const connect = () => {
    const source = new EventSource(url);
    source.addEventListener('open', () => {
      say('');
      if (polling !== null) { clearInterval(polling); polling = null; }
    });
    source.addEventListener('error', () => {
      if (source.readyState !== EventSource.CLOSED || !poll) {
        say('Connection lost, reconnecting…');
        return;
      }
      if (polling === null) {
        pollOnce();
        polling = setInterval(pollOnce, POLL_MS);
      }
      setTimeout(connect, STREAM_AGAIN_MS);
    });
    for (const name of Object.keys(handle)) {
      source.addEventListener(name, (e) => handle[name](JSON.parse(e.data)));
    }
  };
  connect();
}

// `bbBbb/5/2W2/5/rrRrr` -> Map{square name -> pawn letter}.
export function boardPieces(board) {
  const pieces = new Map();
  board.split('/').forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/[1-5]/.test(ch)) { file += Number(ch); continue; }
      pieces.set(FILES[file] + (5 - i), ch);
      file += 1;
    }
  });
  return pieces;
}

// `<board> <turn> <red cards> <blue cards> <side card(s)>` (cards comma-separated).
export function positionParts(position) {
  const [board, turn, red, blue, side] = position.split(' ');
  const list = (text) => (text ? text.split(',').map((n) => n.replace(/-/g, ' ')) : []);
  return { board, turn, red: list(red), blue: list(blue), side: list(side) };
}

export function pawnElement(kind, tag = 'span') {
  const el = element(tag, `pawn ${PAWN_CLASS[kind] || 'pawn-unknown'}`);
  el.dataset.kind = kind;
  if (tag === 'span') el.setAttribute('aria-hidden', 'true');
  return el;
}

// A card as it lies on the table: its name and its moves on a 5x5 grid around the pawn (the
// dark cell). Blue's cards are turned round, as Blue sees them from across the table.
export function cardElement(name, patterns, { turned = false } = {}) {
  const card = patterns[name] || patterns[name.replace(/ /g, '-')];
  const el = element('div', 'card');
  el.dataset.card = name;
  if (!card) {
    el.append(element('span', 'card-name', name));
    return el;
  }
  const grids = card.master_moves
    ? [['master', card.master_moves], ['student', card.student_moves]]
    : [['', card.moves || []]];
  if (card.wind_moves) grids.push(['Spirit', card.wind_moves]);
  const row = element('div', 'card-grids');
  for (const [label, offsets] of grids) {
    const grid = element('div', 'card-grid');
    const marks = new Map();
    const mark = (list, cls) => (list || []).forEach(([dx, dy]) => {
      const col = turned ? 2 - dx : 2 + dx;
      const line = turned ? 2 + dy : 2 - dy;
      if (col >= 0 && col < 5 && line >= 0 && line < 5) marks.set(line * 5 + col, cls);
    });
    mark(offsets, 'to');
    if (!label) {
      mark(card.move_only, 'move-only');
      mark(card.capture_only, 'capture-only');
    }
    for (let i = 0; i < 25; i++) {
      grid.append(element('span', i === 12 ? 'cell origin' : `cell ${marks.get(i) || ''}`));
    }
    const figure = element('div', 'card-pattern');
    figure.append(grid);
    if (label) figure.append(element('span', 'card-label', label));
    row.append(figure);
  }
  el.append(row, element('span', 'card-name', name));
  el.setAttribute('aria-label', `${name} card`);
  return el;
}

// The board the set-up asks for (its position string's first field), or null.
// The Ninjas everyone has seen (a Strike, a Lantern that found one): square -> [colours], from
// the public view; a hidden Ninja is never in it.
export function seenNinjas(view) {
  const seen = new Map();
  const ninjas = (view.table && view.table.ninjas) || {};
  for (const [colour, n] of Object.entries(ninjas)) {
    for (const square of n.revealed || []) seen.set(square, [...(seen.get(square) || []), colour]);
  }
  return seen;
}

export function seenNinjaElement(colour) {
  const token = element('span', `ninja-seen ninja-${colour}`, 'N');
  token.setAttribute('aria-hidden', 'true');
  return token;
}

// The move the mat waits for (made for the computer or a seat away from the table), as the
// mat lights it: from squares and to squares, a to square holding the other seat's pawn taken.
export function expectedSquares(view, pieces) {
  const game = view.game;
  const none = { from: [], to: [], take: [], colour: '#fff' };
  const expected = game && game.expected;
  if (!expected || view.setup || game.status !== 'playing') return none;
  const squares = expected.text.match(/[a-e][1-5]/g) || [];
  const from = squares.filter((_, i) => i % 2 === 0);
  const to = squares.filter((_, i) => i % 2 === 1);
  const theirs = expected.seat === 'red' ? 'bB' : 'rR';
  const take = to.slice(0, 1).filter((s) => pieces.has(s) && theirs.includes(pieces.get(s)));
  return { from, to, take, colour: `var(--${expected.seat})` };
}

export function setupBoard(view) {
  return view.setup ? view.setup.board.split(' ')[0] : null;
}

export function showCards(view, patterns) {
  const position = view.table && view.table.position;
  const setup = view.setup;
  const parts = position ? positionParts(position) : null;
  const red = setup ? setup.red : parts ? parts.red : [];
  const blue = setup ? setup.blue : parts ? parts.blue : [];
  const side = setup ? [setup.side] : parts ? parts.side : [];
  const fill = (id, names, turned) => {
    const box = document.getElementById(id);
    box.replaceChildren(...names.map((n) => cardElement(n, patterns, { turned })));
  };
  fill('hand-red', red, false);
  fill('hand-blue', blue, true);
  // The side card goes to whoever plays next, so it faces them.
  const turn = setup ? setup.first : parts && parts.turn;
  fill('side-card', side, turn === 'blue');
}

export function variantName(names, id) {
  return names[id] || id;
}

// A result in one sentence ("Red wins by" and how). The words are the server's
// (companion/rules/results.py): it sends ``result_words`` beside every result it sends.
export function resultText(words) {
  return words ? words.sentence : '';
}

const seatName = (seat) => (seat === 'red' ? 'Red' : 'Blue');

// The result banner of the table and simulation pages, once the game is over: "Red wins",
// and how (the rulebook's name), and the way to the replay and the record.
export function showResult(view) {
  const box = $('#result');
  const result = view.table && view.table.result;
  const words = view.result_words;
  box.hidden = !(result && words);
  if (!(result && words)) return;
  const { head, line: how } = words;
  box.dataset.winner = result.winner || 'none';
  box.setAttribute('aria-label', `${head}: ${how}`);
  $('.result-head', box).textContent = head;
  $('.result-how', box).textContent = how;
  $('.result-replay', box).href = `/games/${view.game.id}/replay`;
  $('.result-record', box).href = `/games/${view.game.id}/record.json`;
}

// The two status lines: what is happening, and what to do about it.
export function statusLines(view, names) {
  const game = view.game;
  // What the people at the table must do, worded by the companion (companion.table.views):
  // a new phone's question, a move to make for the computer or a seat away, a pawn to set right.
  if (view.instruction) return [view.instruction.title, view.instruction.detail];
  if (!game) return ['No game yet', 'Deal a new game, or hold C on the companion for a base game.'];
  const variant = variantName(names, game.variant);
  const table = view.table || {};
  if (view.setup) return [`Set up: ${variant}`, 'Take the cards and stand the pawns as shown.'];
  if (game.status === 'sync') return ['Put the pawns back', 'Stand them as the game has them: the lit squares show where.'];
  if (table.result) return [resultText(view.result_words), `${variant}, ${table.log.length} turns`];
  const acting = (table.to_act || []).map(seatName);
  const who = acting.length ? `${acting.join(' and ')} to play` : 'Waiting';
  return [who, `${variant}, turn ${table.log.length + 1}`];
}

export function setupText(view) {
  const s = view.setup;
  if (!s) return [];
  const list = (names) => names.join(' and ');
  const lines = [
    `Red takes ${list(s.red)}.`,
    `Blue takes ${list(s.blue)}.`,
    `${s.side} goes beside the mat.`,
    `${seatName(s.first)} moves first.`,
  ];
  if (s.ninjas) {
    // Way of the Light: the Light Master has no Ninja (view.table.light is their colour).
    const light = view.table && view.table.light;
    lines.push(light ? `Only the Shadow Master (${seatName(light === 'red' ? 'blue' : 'red')}) has Ninjas: `
      + 'they hide them on their phone.' : 'Each player hides a Ninja on their phone.');
  }
  return lines;
}

// A mat out of sync by one pawn moved where no card allows: the rule it breaks (the view's
// `reason`, read from the public position alone), before what to do about it.
export function withReason(mat, text) {
  return mat && mat.reason ? `${mat.reason} ${text}` : text;
}

// `unsaved`: the view's "Cannot save: storage full" (the last move was not played), said first.
export function matText(mat, unsaved = null) {
  if (!mat) return '';
  if (unsaved) return `${unsaved}. That move was not played. ${matText(mat)}`;
  const squares = (list) => list.join(', ');
  const moves = (mat.pairs || []).map(([from, to]) => `${from} to ${to}`).join(', ');
  switch (mat.state) {
    case 'ok': return 'The mat matches the game.';
    case 'moving': return 'A move is being made.';
    case 'setup':
      return mat.wrong.length ? `To lay out: ${squares(mat.wrong)}.` : 'The pawns are laid out.';
    case 'prompt': return 'The companion has a question.';
    case 'mismatch':
      return withReason(mat, `The mat does not match the game${moves ? `: move ${moves}` : `: check ${squares(mat.wrong)}`}.`);
    default: return '';
  }
}

// The squares the last turn touched, from its notation (`Hawk b1a2 c3a4`): [from, to, ...].
export function lastTurnSquares(log) {
  if (!log || !log.length) return [];
  return log[log.length - 1].match(/[a-e][1-5]/g) || [];
}

// The move list: ``moves`` (the view's entries in players' words, each with its seat) when
// given, else the notation of ``log``. Each number takes its mover's colour: either seat may
// have moved first.
export function showLog(list, log, moves) {
  const items = moves
    ? moves.map((m) => {
      const li = element('li', `by-${m.seat || 'both'}`, m.words);
      li.value = m.n;
      li.title = m.text;
      return li;
    })
    : (log || []).map((text) => element('li', '', text));
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

// The OLED picture: fetched again when the server says its key changed, one download at a
// time, swapped in only once loaded so it never flickers.
export function oledRefresher(img) {
  let shown = null;
  let wanted = null;
  let loading = false;
  const load = () => {
    if (loading || wanted === shown) return;
    loading = true;
    const key = wanted;
    const next = new Image();
    const done = () => { loading = false; load(); };
    next.onload = () => {
      img.src = next.src;
      shown = key;
      img.dataset.key = key;
      done();
    };
    next.onerror = done;
    next.src = `${img.src.split('?')[0]}?k=${encodeURIComponent(key)}`;
  };
  return (key) => {
    wanted = String(key);
    load();
  };
}

// The ways of playing (GET /api/ways; the pages get the same list in their boot data), by name.
export function waysByName(ways) {
  return Object.fromEntries((ways || []).map((w) => [w.name, w]));
}

// The new-game form: the way of playing decides which fields matter (its set-up options);
// the server's answer goes to the alert line.
export function setupForm(form, ways, currentView) {
  const variant = $('#ng-variant', form);
  const byName = waysByName(ways);
  const windField = $('#ng-wind-field', form);
  const error = $('#ng-error', form);
  const takes = (option) => (byName[variant.value] || { options: [] }).options.includes(option);
  const about = $('#ng-about', form);
  const sync = () => {
    windField.hidden = !takes('wind_cards');
    if (about) about.textContent = (byName[variant.value] || {}).description || '';
  };
  variant.addEventListener('change', sync);
  sync();
  const names_ = (text) => text.split(',').map((t) => t.trim()).filter(Boolean);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    const body = {
      variant: variant.value,
      sets: [...form.querySelectorAll('input[name=sets]:checked')].map((i) => i.value),
      wind_cards: Number($('#ng-wind', form).value),
    };
    // Who plays each seat: someone at the mat, someone on a phone away from it, the computer,
    // someone at another table (on its own mat, which takes this table's invite).
    const computer = {};
    const remote = [];
    const table = [];
    for (const seat of ['red', 'blue']) {
      const who = $(`#ng-${seat}-player`, form).value;
      if (who === 'remote') remote.push(seat);
      else if (who === 'table') table.push(seat);
      else if (who.startsWith('computer:')) computer[seat] = who.slice('computer:'.length);
    }
    if (Object.keys(computer).length) body.computer = computer;
    if (remote.length) body.remote = remote;
    if (table.length) body.table = table;
    const hints = Number($('#ng-hints', form).value);
    if (!Number.isInteger(hints) || hints < 0 || hints > 99) {
      error.textContent = 'Hints: a whole number from 0 to 99.'; return;
    }
    body.hints = hints;
    const red = names_($('#ng-red', form).value);
    const blue = names_($('#ng-blue', form).value);
    const side = $('#ng-side', form).value.trim();
    if (red.length || blue.length || side) body.cards = { red, blue, side };
    if (!body.sets.length) { error.textContent = 'Choose at least one card set.'; return; }
    // A spectator's tap must not end the game on the table by accident: the page asks in
    // its own words (a browser's confirm() dialog blocks the page and its live view).
    const game = currentView().game;
    if (game && game.status !== 'finished') {
      pending = body;
      confirmBox.hidden = false;
      $('#ng-abandon', form).focus();
      return;
    }
    deal(body);
  });
  let pending = null;
  const confirmBox = $('#ng-confirm', form);
  const deal = async (body) => {
    const button = $('button[type=submit]', form);
    button.disabled = true;
    try {
      await postJSON('/api/new-game', body);
    } catch (err) {
      $('#ng-error', form).textContent = err.message;
    } finally {
      button.disabled = false;
    }
  };
  $('#ng-abandon', form).addEventListener('click', () => {
    confirmBox.hidden = true;
    if (pending) deal(pending);
    pending = null;
  });
  $('#ng-keep', form).addEventListener('click', () => {
    confirmBox.hidden = true;
    pending = null;
  });
}
