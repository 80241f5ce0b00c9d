// A player's phone: their private screen (the Ninja board in Light & Shadow), live from
// /seat/events. Everything shown comes from this seat's own view, which the server has already
// redacted; the page only draws it and offers the view's legal actions. Board choices (a
// square, a Ninja step, a Lantern's line) take a tap to choose and a tap to confirm, because a
// secret move cannot be taken back; skip and pass buttons act at once.
import {
  FILES, boardPieces, cardElement, element, lastTurnSquares, pawnElement, positionParts,
  expectedSquares, resultText, showLog, variantName, viewHandler, waysByName, withReason,
} from './common.js';

const data = JSON.parse(document.getElementById('boot').textContent);
const SEAT = data.seat;
const OTHER = SEAT === 'red' ? 'blue' : 'red';
// The ways of playing whose main-board moves the mat reads (the registry's mat_reads_moves).
// There the phone never offers a pawn move of a seat that has pawns; every other step is
// played here.
const WAYS = waysByName(data.ways);
const PAWN_NAMES = { R: 'Red master', r: 'Red student', B: 'Blue master', b: 'Blue student', W: 'Wind Spirit' };

const $ = (id) => document.getElementById(id);
const title = (text) => text[0].toUpperCase() + text.slice(1);
const who = (seat) => (seat === SEAT ? 'You' : title(seat));

// The board as this seat sees it: its own side at the bottom (Blue sees it turned round).
const RANKS = SEAT === 'red' ? [5, 4, 3, 2, 1] : [1, 2, 3, 4, 5];
const COLUMNS = SEAT === 'red' ? [...FILES] : [...FILES].reverse();
const ORDER = RANKS.flatMap((rank) => COLUMNS.map((file) => file + rank));

let view = data.view;
let shownVersion = -1;
let choice = { step: null, from: null, to: null, squares: [], line: null };
let busy = false;
let awaited = 0;         // the version an answered request was shown in, until the page has it
let fallback = null;     // fetches that version itself if the stream does not bring it
let source = null;
let lost = false;

// -- reading the view ---------------------------------------------------------------------------

const table = () => view.table;
const stepKey = (t) => `${t.log.length}:${t.phase || 'move'}`;
const myTurn = (t) => Boolean(t && !t.result && t.to_act.includes(SEAT));
const hasPawns = (position, seat) => /[a-zA-Z]/.test(position.split(' ')[0]
  .replace(seat === 'red' ? /[^Rr]/g : /[^Bb]/g, ''));

// The actions this phone offers now, grouped by what the page does with them.
function offered() {
  const t = table();
  const none = { places: [], steps: [], lanterns: [], buttons: [] };
  if (!view.game || !myTurn(t) || lost) return none;
  const way = WAYS[view.game.variant];
  // A seat played from a phone away from the table chooses its moves here; hands at the mat
  // make them.
  const remote = (view.game.remote || []).includes(SEAT);
  const matMove = !remote && Boolean(way && way.mat_reads_moves) && (t.phase || 'move') === 'move'
    && hasPawns(t.position, SEAT);
  if (matMove) return none;
  const legal = t.legal || [];
  return {
    places: legal.filter((a) => a.kind === 'place'),
    steps: legal.filter((a) => a.from && a.to),
    lanterns: legal.filter((a) => a.kind === 'lantern'),
    buttons: legal.filter((a) => ['skip', 'pass', 'take'].includes(a.kind)),
  };
}


function ninjasOnBoard(t) {
  const found = new Map();   // square -> [{colour, hidden}]
  const add = (square, colour, hidden) => {
    if (!found.has(square)) found.set(square, []);
    if (!found.get(square).some((n) => n.colour === colour)) found.get(square).push({ colour, hidden });
  };
  if (!t) return found;
  if (t.all_ninjas) {
    // The game is over: every Ninja is shown where it stands.
    for (const [colour, list] of Object.entries(t.all_ninjas)) for (const square of list) add(square, colour, false);
    return found;
  }
  for (const [colour, facts] of Object.entries(t.ninjas || {})) {
    for (const square of facts.revealed || []) add(square, colour, false);
  }
  for (const square of t.own_ninjas || []) add(square, SEAT, true);
  return found;
}

const lineSquares = (text) => (/^L[1-5]$/.test(text)
  ? [...FILES].map((f) => f + text[1])
  : [1, 2, 3, 4, 5].map((r) => text[1] + r));

// -- the words at the top -------------------------------------------------------------------------

const DOING = {
  move: 'is making their move', ninja: 'may move their Ninja', lantern: 'may light a Lantern',
  setup: 'is hiding their Ninja', commit: 'is choosing their move',   // (Light: see the server's headline)
};

function headline() {
  const t = table();
  const game = view.game;
  // The companion writes what to do now (companion.table.headlines); older views do not.
  if (view.headline) return [view.headline.title, view.headline.detail];
  if (!game) return ['No game yet', 'Deal one on the table page, or hold C on the companion.'];
  if (t && t.result) {
    const won = t.result.winner === SEAT;
    const head = t.result.winner ? (won ? 'You win!' : `${title(t.result.winner)} wins`) : view.result_words.head;
    return [head, resultText(view.result_words)];
  }
  if (view.setup && !myTurn(t)) {
    const s = view.setup;
    const light = t && t.light;
    const ninjas = !s.ninjas ? '' : light ? ` Only the Shadow Master (${title(light === 'red' ? 'blue' : 'red')}) has Ninjas.`
      : ' Each player hides a Ninja on their phone.';
    return ['Set up the mat', `You take ${s[SEAT].join(' and ')}; ${s.side} goes beside the mat. ${title(s.first)} starts.${ninjas}`];
  }
  if (game.status === 'sync' && !view.setup && !myTurn(t)) {
    return ['Put the pawns back', 'Stand them as the game has them: the lit squares show where.'];
  }
  const phase = (t && t.phase) || 'move';
  if (askedHere(view.mat && view.mat.prompt)) return ['Which card?', 'The companion needs your answer below.'];
  if (myTurn(t)) {
    const offers = offered();
    if (phase === 'setup') {
      const n = offers.places.length ? offers.places[0].squares.length : 1;
      return [`Hide your Ninja${n > 1 ? 's' : ''}`, `Tap ${n > 1 ? 'two lit squares' : 'a lit square'}, then confirm. Nobody else sees ${n > 1 ? 'them' : 'it'}.`];
    }
    if (phase === 'ninja') return ['Your Ninja', 'Move it with the card you played, strike, or leave it.'];
    if (phase === 'lantern') return ['A Lantern?', 'Search a rank or a file, or go without.'];
    if (phase === 'commit') return ['Choose your move', 'Both players choose in secret; the mat shows both at once.'];
    if (!offers.steps.length && !offers.buttons.length) return ['Your turn', 'Make your move on the mat.'];
    if (view.game.variant === 'light' && !hasPawns(t.position, SEAT)) {
      return ['Your turn', 'Tap a Ninja, then where it goes; choose the card if both can.'];
    }
    return ['Your turn', 'Choose your move.'];
  }
  const acting = (t ? t.to_act : []).filter((s) => s !== SEAT);
  if (!acting.length) return ['Waiting', 'Your choice is in: waiting for the other player.'];
  return [`${title(acting[0])}'s turn`, `${title(acting[0])} ${DOING[phase] || 'is playing'}.`];
}

// -- drawing ------------------------------------------------------------------------------------

const board = $('board');
const squares = new Map();
for (const name of ORDER) {
  const cell = element('button', `square${name === 'c1' || name === 'c5' ? ' temple' : ''}`);
  cell.type = 'button';
  cell.dataset.square = name;
  cell.addEventListener('click', () => tapSquare(name));
  squares.set(name, cell);
  board.append(cell);
}

function ninjaToken(colour, hidden) {
  const token = element('span', `ninja ninja-${colour}${hidden ? ' ninja-hidden' : ''}`, 'N');
  token.setAttribute('aria-hidden', 'true');
  return token;
}

// A hint in a way with secrets ({from: {to: grade}}): graded from this seat's own view, so it
// shows here alone, never on the mat. Tap a pawn: its squares light by grade.
const hintGrades = () => (view.hints && view.hints.on && view.hints.grades && view.game
  && WAYS[view.game.variant] && WAYS[view.game.variant].hidden ? view.hints.grades : null);
const HINT_MARKS = ['hint-good', 'hint-risky', 'hint-losing'];

// The squares to light, by class: where a choice can start, where it can go, what is chosen.
function highlights(offers) {
  const marks = new Map();
  const mark = (square, cls) => {
    if (!marks.has(square)) marks.set(square, new Set());
    marks.get(square).add(cls);
  };
  if (offers.places.length) {
    const fits = offers.places.filter((a) => choice.squares.every((s) => a.squares.includes(s)));
    // Every Ninja placed: a tap elsewhere moves the first chosen (tapSquare), so those squares
    // stay open to a tap.
    const rest = choice.squares.slice(1);
    const full = choice.squares.length === offers.places[0].squares.length;
    const moves = full ? offers.places.filter((a) => rest.every((s) => a.squares.includes(s))) : [];
    for (const a of [...fits, ...moves]) for (const s of a.squares) mark(s, 'target');
    for (const s of choice.squares) mark(s, 'chosen');
  }
  if (offers.steps.length) {
    for (const a of offers.steps) mark(a.from, 'source');
    if (choice.from) {
      mark(choice.from, 'chosen');
      for (const a of offers.steps.filter((x) => x.from === choice.from)) {
        mark(a.to, a.kind === 'strike' ? 'strike' : 'target');
      }
    }
    if (choice.to) mark(choice.to, 'chosen');
  }
  if (choice.line) for (const s of lineSquares(choice.line)) mark(s, 'line');
  const grades = hintGrades();
  if (grades && !offers.steps.length && !offers.places.length) {
    for (const from of Object.keys(grades)) mark(from, 'source');
    if (grades[choice.from]) {
      mark(choice.from, 'chosen');
      for (const [to, grade] of Object.entries(grades[choice.from])) mark(to, `hint-${grade}`);
    }
  }
  return marks;
}

function showBoard(offers) {
  const t = table();
  const text = view.setup ? view.setup.board.split(' ')[0] : t && t.position.split(' ')[0];
  const pieces = text ? boardPieces(text) : new Map();
  const ninjas = ninjasOnBoard(t);
  const marks = highlights(offers);
  const last = view.setup ? [] : lastTurnSquares(t && t.log);
  const wrong = new Set((view.mat && view.mat.wrong) || []);
  const expect = expectedSquares(view, pieces);
  board.style.setProperty('--expect', expect.colour);
  for (const [name, cell] of squares) {
    const kind = pieces.get(name);
    const here = ninjas.get(name) || [];
    const content = [element('span', 'coord', name)];
    if (kind) content.push(pawnElement(kind));
    if (here.length) {
      const box = element('span', `ninjas${kind ? ' with-pawn' : ''}`);
      box.append(...here.map((n) => ninjaToken(n.colour, n.hidden)));
      content.push(box);
    }
    cell.replaceChildren(...content);
    const cls = marks.get(name) || new Set();
    for (const c of ['source', 'target', 'strike', 'chosen', 'line', ...HINT_MARKS]) cell.classList.toggle(c, cls.has(c));
    cell.classList.toggle('last', last.includes(name));
    cell.classList.toggle('wrong', wrong.has(name));
    cell.classList.toggle('expect-from', expect.from.includes(name));
    cell.classList.toggle('expect-to', expect.to.includes(name));
    cell.classList.toggle('expect-take', expect.take.includes(name));
    cell.disabled = !(cls.has('source') || cls.has('target') || cls.has('strike') || cls.has('chosen'));
    const words = [name];
    if (kind) words.push(PAWN_NAMES[kind] || kind);
    for (const n of here) words.push(n.hidden ? 'your hidden Ninja' : `${title(n.colour)}'s Ninja`);
    if (cls.has('target') || cls.has('strike')) words.push('you may go here');
    if (cls.has('chosen')) words.push('chosen');
    if (expect.from.includes(name)) words.push('lift this piece');
    if (expect.to.includes(name)) words.push(expect.take.includes(name) ? 'it goes here, taking the pawn' : 'it goes here');
    cell.setAttribute('aria-label', words.join(', '));
  }
}

function showCards() {
  const t = table();
  const parts = view.setup ? { red: view.setup.red, blue: view.setup.blue, side: [view.setup.side],
    turn: view.setup.first } : t && t.position ? positionParts(t.position) : null;
  const fill = (id, names, turned) => $(id).replaceChildren(...names.map((n) => {
    const card = cardElement(n, data.cards, { turned });
    if (t && t.card === n && id === (t.turn === SEAT ? 'hand-mine' : 'hand-theirs')) {
      card.classList.add('card-played');
      card.append(element('span', 'card-tag', 'played'));
    }
    return card;
  }));
  fill('hand-mine', parts ? parts[SEAT] : [], false);
  fill('hand-theirs', parts ? parts[OTHER] : [], true);
  // The side card goes to whoever plays next, so it faces them.
  fill('side-card', parts ? parts.side : [], Boolean(parts) && parts.turn !== SEAT);
}

function button(label, onClick, cls = '') {
  const b = element('button', `big-button ${cls}`.trim(), label);
  b.type = 'button';
  b.disabled = busy;
  b.addEventListener('click', onClick);
  return b;
}

function stepLabel(action) {
  const card = table().card ? '' : `${action.card}: `;
  if (action.kind === 'strike') return `${card}Strike from ${action.to}`;
  if (action.kind === 'ninja') return `${card}Ninja to ${action.to}`;
  // The words of every other screen (companion/table/instructions.py): "Eel: b5 to c4". A
  // Wind Spirit card's moves share their student's step: each names its Spirit step too.
  const spirit = action.text.split(' ')[2];
  const then = !spirit ? '' : spirit === '-' ? ', the Spirit stays'
    : `, Spirit ${spirit.slice(0, 2)} to ${spirit.slice(2)}`;
  return `${action.card}: ${action.from} to ${action.to}${then}`;
}

const BUTTON_LABELS = {
  ninja: 'Leave the Ninja where it is', lantern: 'No Lantern this turn',
};

function showActions(offers) {
  const t = table();
  const box = $('actions');
  const buttons = [];
  let hint = '';
  if (offers.places.length) {
    const exact = offers.places.find((a) => a.squares.length === choice.squares.length
      && a.squares.every((s) => choice.squares.includes(s)));
    hint = exact ? 'Confirm to hide it there.' : 'Tap where your Ninja starts.';
    if (exact) buttons.push(button(`Hide on ${exact.squares.join(' and ')}`, () => act(exact), 'primary'));
  }
  if (offers.steps.length) {
    const matching = offers.steps.filter((a) => a.from === choice.from && a.to === choice.to);
    const sent = view.game && view.game.expected && view.game.expected.seat === SEAT;
    hint = matching.length ? 'Confirm your choice.'
      : choice.from ? 'Tap a lit square.' : sent ? 'To send another move instead, tap its piece.'
        : 'Tap the piece to move.';
    for (const a of matching) buttons.push(button(stepLabel(a), () => act(a), a.kind === 'strike' ? 'danger' : 'primary'));
  }
  const picker = $('lantern-picker');
  picker.hidden = !offers.lanterns.length;
  if (offers.lanterns.length) {
    showLanternPicker(offers.lanterns);
    const chosen = offers.lanterns.find((a) => a.text === choice.line);
    hint = chosen ? 'Confirm to search that line.' : 'Search a rank or a file for the enemy Ninja.';
    if (chosen) buttons.push(button(`Search ${describeLine(chosen.text)}`, () => act(chosen), 'primary'));
  }
  for (const a of offers.buttons) {
    const label = a.kind === 'pass' ? `Pass, giving up ${a.card}`
      : a.kind === 'take' ? `Take ${a.card}` : BUTTON_LABELS[t.phase] || 'Skip';
    buttons.push(button(label, () => act(a)));
  }
  $('action-hint').textContent = hint;
  $('action-buttons').replaceChildren(...buttons);
  box.hidden = !(offers.places.length || offers.steps.length || offers.lanterns.length || offers.buttons.length);
}

const describeLine = (text) => (/^L[1-5]$/.test(text) ? `rank ${text[1]}` : `file ${text[1]}`);

function showLanternPicker(lanterns) {
  const texts = new Set(lanterns.map((a) => a.text));
  const row = (id, names, prefix) => $(id).replaceChildren(element('span', 'line-label', prefix),
    ...names.map((n) => {
      const text = `L${n}`;
      const b = button(String(n), () => { choice.line = choice.line === text ? null : text; render(); }, 'line-button');
      b.disabled = busy || !texts.has(text);
      b.setAttribute('aria-pressed', String(choice.line === text));
      b.setAttribute('aria-label', describeLine(text));
      return b;
    }));
  // In the order this seat sees them across and up its board.
  row('lantern-ranks', [...RANKS].reverse(), 'Rank');
  row('lantern-files', COLUMNS, 'File');
}

// The mat's question to this seat: its own (which card it used), or, when a Spirit step could
// be either player's ("whose step was it?"), the reply side: the card this seat would have
// moved the Spirit with. Either is answered with a card; the server takes the reply seat's.
function askedHere(prompt) {
  if (!prompt || lost) return null;
  if (prompt.seat === SEAT) return prompt;
  return prompt.reply && prompt.reply.seat === SEAT ? prompt.reply : null;
}

function questionText(prompt) {
  if (!prompt.reply) return 'The mat cannot tell which card you used: which one?';
  const other = title(prompt.seat === SEAT ? prompt.reply.seat : prompt.seat);
  return `Did you move the Spirit? If so, which card did you use? If ${other} did, ${other} answers.`;
}

// An answer names the turn the question shown said it is about (``turns``): if the mat asks
// about another turn by the time it lands, the companion keeps it for that turn only.
function withTurn(body, turns, option) {
  const turn = (turns || {})[option];
  return Number.isInteger(turn) ? { ...body, turn } : body;
}

function cardButton(card, key, turns) {
  const b = button(card, () => answer(withTurn({ card }, turns, card)), 'primary');
  if (key) {
    const tag = element('span', 'button-key', key);
    tag.setAttribute('aria-hidden', 'true');
    b.append(tag);
  }
  return b;
}

function showPrompt() {
  const prompt = view.mat && view.mat.prompt;
  const asked = askedHere(prompt);
  $('prompt').hidden = !asked;
  if (!asked) return;
  $('prompt-question').textContent = questionText(prompt);
  const buttons = asked.choose.map((card) => cardButton(card, (asked.buttons || {})[card], asked.turns));
  if (asked === prompt && prompt.takeback) {
    buttons.push(button('Take the move back', () => answer(withTurn({ takeback: true }, prompt.turns, 'takeback'))));
  }
  $('prompt-buttons').replaceChildren(...buttons);
}

function showFacts() {
  const t = table();
  const shadow = t && t.ninjas;
  $('shadow-info').hidden = !shadow;
  if (!shadow) return;
  const facts = [];
  for (const [colour, n] of Object.entries(t.ninjas)) {
    const mine = colour === SEAT;
    const count = n.alive + n.captured;
    // "1 of 1 free" said nothing a player would say: one Ninja is free or captured.
    const whose = mine ? 'Your' : `${title(colour)}'s`;
    let text = count > 1 ? `${whose} Ninjas: ${n.alive} of ${count} free`
      : `${whose} Ninja: ${n.alive ? 'free' : 'captured'}`;
    if (n.revealed.length) text += `, seen on ${n.revealed.join(', ')}`;
    if (mine && t.own_ninjas && t.own_ninjas.length) text += `, hidden on ${t.own_ninjas.join(', ')}`;
    facts.push(text);
  }
  for (const [colour, left] of Object.entries(t.lanterns || {})) {
    if (left || (t.searches || []).some((s) => s.by === colour)) {
      facts.push(`${colour === SEAT ? 'Your' : `${title(colour)}'s`} Lanterns left: ${left}`);
    }
  }
  for (const s of t.searches || []) {
    facts.push(`${who(s.by)} searched ${s.line}: ${s.answer ? 'yes, a Ninja is there' : 'no Ninja'}`);
  }
  $('shadow-facts').replaceChildren(...facts.map((f) => element('li', '', f)));
}

let overShown = false;

// A solved position's hint ({from: {to: "wins in 2" | "no forced win" | "loses in 4"}}):
// the fastest wins, else whether a move holds, else the longest loss.
function exactWords(exact) {
  if (!exact) return '';
  const moves = [];
  for (const [from, row] of Object.entries(exact))
    for (const [to, words] of Object.entries(row)) moves.push({move: `${from}-${to}`, words, n: Number(words.split(' ').pop())});
  const wins = moves.filter(m => m.words.startsWith('wins')).sort((a, b) => a.n - b.n);
  if (wins.length) return ` Solved: ${wins.filter(m => m.n === wins[0].n).map(m => m.move).join(', ')} wins in ${wins[0].n}.`;
  if (moves.some(m => m.words === 'no forced win')) return ' Solved: no forced win for either side.';
  const longest = moves.sort((a, b) => b.n - a.n)[0];
  return longest ? ` Solved: every move loses; ${longest.move} loses in ${longest.n}.` : '';
}

// Hints: for this seat's own move on the mat; the lifted pawn's destinations light up by
// how good they are. Nobody else's page shows whether this seat asked.
function showHint() {
  const t = table();
  const hints = view.hints;
  const way = view.game && WAYS[view.game.variant];
  const remote = view.game && (view.game.remote || []).includes(SEAT);
  const onMat = Boolean(t && way && way.mat_reads_moves && !remote && myTurn(t)
    && (t.phase || 'move') === 'move' && hasPawns(t.position, SEAT) && !lost);
  $('hint-box').hidden = !(hints && onMat && (hints.left > 0 || hints.on || hints.asking));
  if (!hints) return;
  $('hint-button').disabled = busy || hints.on || hints.asking || hints.left <= 0;
  $('hint-line').textContent = hints.on ? `Hint on: ${hintGrades() ? 'tap a pawn on this board' : 'lift a pawn'}. Green: good, yellow: risky, red: losing.${exactWords(hints.exact)}`
    : hints.asking ? 'Thinking about your move…' : `${hints.left} hint${hints.left === 1 ? '' : 's'} left in this game.`;
}

function showOver() {
  const t = table();
  const over = Boolean(t && t.result);
  $('over').hidden = !over;
  // One result banner: the headline box would say the same above it.
  document.querySelector('.turn-box').hidden = over;
  // The result banner is at the top: bring it into view once, as the game ends.
  if (over && !overShown) requestAnimationFrame(() => $('over').scrollIntoView({ block: 'start' }));
  overShown = over;
  if (!over) return;
  const r = t.result;
  $('over').dataset.outcome = !r.winner ? 'draw' : r.winner === SEAT ? 'won' : 'lost';
  // Nobody won (drawn or abandoned): the server's words (companion/rules/results.py).
  $('over-head').textContent = !r.winner ? view.result_words.head : r.winner === SEAT ? 'You win!' : 'You lose';
  $('over-title').textContent = resultText(view.result_words);
  $('replay-link').href = `/games/${view.game.id}/replay`;
  const ends = Object.entries(t.all_ninjas || {}).filter(([, list]) => list.length)
    .map(([colour, list]) => `${who(colour) === 'You' ? 'yours' : `${title(colour)}'s`} on ${list.join(' and ')}`);
  $('over-ninjas').textContent = ends.length ? `The Ninjas at the end: ${ends.join('; ')}.` : '';
}

// -- telling the player ------------------------------------------------------------------------

// What this seat has on the board: its pawns, and its Ninjas still free.
function pieceCount(t) {
  if (!t || !t.position) return 0;
  const mine = SEAT === 'red' ? /[Rr]/g : /[Bb]/g;
  const pawns = (t.position.split(' ')[0].match(mine) || []).length;
  const ninjas = t.ninjas && t.ninjas[SEAT] ? t.ninjas[SEAT].alive : 0;
  return pawns + ninjas;
}

let felt = null;   // {turn, pieces} at the last render: a buzz when either changes for the worse
function buzz() {
  const t = table();
  const now = { turn: myTurn(t) && !lost, pieces: pieceCount(t), game: view.game && view.game.id };
  // A phone buzzes only once its player has touched the page (browsers refuse it before).
  const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  if (felt && felt.game === now.game && navigator.vibrate && touched) {
    if (now.pieces < felt.pieces) navigator.vibrate([120, 80, 120]);      // a piece lost
    else if (now.turn && !felt.turn) navigator.vibrate(180);              // your turn
  }
  felt = now;
}

// The choices sit under the board, held at the screen's bottom (seat.css) so that they are never
// below the fold. Each time they change, the page scrolls them into their own place under the
// board, where they cover none of it: the board whole above, every button below (a list too
// long for the screen scrolls inside the box). Held over the board, five Wind buttons hid its
// lower half. Only a change scrolls: the player's own scrolling is left alone.
let shownChoices = '';
function reachChoices() {
  const box = $('actions');
  const key = box.hidden ? '' : [...box.querySelectorAll('.action-hint, button')].map((e) => e.textContent).join('|');
  if (key && key !== shownChoices) {
    const wrap = $('board').parentElement.getBoundingClientRect();
    const gap = parseFloat(getComputedStyle(box.parentElement).rowGap) || 0;
    const below = wrap.bottom + gap + box.offsetHeight - window.innerHeight;
    const room = Math.max(wrap.top, 0);             // never past the board's top
    if (below > 0 && room > 0) window.scrollBy({ top: Math.min(below, room), behavior: 'smooth' });
  }
  shownChoices = key;
  // A question's answer is above the board: bring it into the thumb's reach.
  const answer = document.querySelector('#prompt-buttons .primary');
  if (!answer) return;
  const place = answer.getBoundingClientRect();
  if (place.bottom > window.innerHeight || place.top < 0) answer.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
}

function render() {
  const t = table();
  if (t && choice.step !== stepKey(t)) {
    choice = { step: stepKey(t), from: null, to: null, squares: [], line: null };
  }
  const offers = offered();
  // A single piece to move is chosen for the player.
  const froms = [...new Set(offers.steps.map((a) => a.from))];
  if (!choice.from && froms.length === 1) choice.from = froms[0];
  const [head, sub] = lost ? ['No seat', lost] : headline();
  $('headline').textContent = head;
  $('subline').textContent = sub;
  document.body.classList.toggle('my-turn', myTurn(t) && !lost);
  document.body.classList.toggle('outcome-won', Boolean(t && t.result && t.result.winner === SEAT));
  document.body.dataset.phase = (t && t.phase) || '';
  $('variant').textContent = view.game ? variantName(data.names, view.game.variant) : '';
  showPrompt();
  showBoard(offers);
  showCards();
  showActions(offers);
  showFacts();
  showHint();
  $('takeover-box').hidden = !view.takeover || Boolean(lost);
  showOver();
  $('oled-lines').textContent = (view.oled || []).join('\n');
  $('mat-line').textContent = view.mat && view.mat.state === 'mismatch'
    ? withReason(view.mat, `The mat does not match the game: check ${view.mat.wrong.join(', ')}.`) : '';
  showLog($('log'), t && t.log, t && t.moves);
  const wrong = (view.mat && view.mat.wrong) || [];
  $('board-legend').hidden = !wrong.length || Boolean(view.setup);
  document.body.dataset.version = String(view.version);
  buzz();
  reachChoices();
}

// A view from the stream. Versions only grow while the companion runs; a smaller one means it
// restarted, so any different version is taken.
function show(next) {
  if (next.version === shownVersion) return;
  shownVersion = next.version;
  view = next;
  if (awaited && next.version >= awaited) settle(0);
  else render();
}

// The page's own state changed (a request went out or came back): draw again even when the
// view is the one already shown, since the controls depend on ``busy`` too. An answer names
// the version of the view that shows what it did (sending the view itself would grow with
// the game): the stream often brings it before the answer; until it has, the page stays busy,
// and a stream that does not bring it within a second is replaced by one whole view.
function settle(version) {
  clearTimeout(fallback);
  if (version && version > shownVersion) {
    awaited = version;
    fallback = setTimeout(fetchView, 1000);
    render();
    return;
  }
  awaited = 0;
  busy = false;
  render();
}

async function fetchView() {
  try {
    const response = await fetch('/seat/view', { cache: 'no-store' });
    if (response.ok) {
      view = await response.json();
      shownVersion = view.version;
    }
  } catch { /* the companion is unreachable: the stream's badge says so */ }
  settle(0);
}

// -- choosing -----------------------------------------------------------------------------------

function tapSquare(name) {
  if (busy) return;
  const offers = offered();
  if (offers.places.length) {
    const has = choice.squares.includes(name);
    const next = has ? choice.squares.filter((s) => s !== name) : [...choice.squares, name];
    // A square tapped when every Ninja has one moves the first chosen there: one tap switches.
    const moved = has ? next : [...choice.squares.slice(1), name];
    const fits = (list) => offers.places.some((a) => list.every((s) => a.squares.includes(s)));
    if (fits(next)) choice.squares = next;
    else if (fits(moved)) choice.squares = moved;
    else if (offers.places.some((a) => a.squares.includes(name))) choice.squares = [name];
  } else if (offers.steps.length) {
    if (offers.steps.some((a) => a.from === name) && name !== choice.from) {
      choice.from = name;
      choice.to = null;
    } else if (offers.steps.some((a) => a.from === choice.from && a.to === name)) {
      choice.to = choice.to === name ? null : name;
    }
  } else if (hintGrades() && hintGrades()[name]) {
    choice.from = name;
  }
  render();
}

// Every request body is padded with spaces to one size (JSON ignores them), so its length
// never tells a Ninja step from a skip (the server pads its answers the same way: padding.py).
const REQUEST_BUCKET = 512;
function padded(text) {
  let size = REQUEST_BUCKET;
  while (size < text.length) size *= 2;
  return text + ' '.repeat(size - text.length);
}

async function post(url, body) {
  busy = true;
  $('action-error').textContent = '';
  render();
  try {
    const response = await fetch(url, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: padded(JSON.stringify({ ...body, step: stepKey(table()) })),
    });
    let answer = null;
    try { answer = await response.json(); } catch { /* not JSON: say the status */ }
    if (!response.ok) throw new Error((answer && answer.error) || `${response.status} ${response.statusText}`);
    // A move sent from afar waits on the mat (the step is the same): the choice is made, so
    // its confirm box goes; another move may still be chosen and sent.
    if (answer.on_mat) choice = { step: choice.step, from: null, to: null, squares: [], line: null };
    settle(answer.version);
  } catch (err) {
    $('action-error').textContent = `Not done: ${err.message}`;
    settle(null);
  }
}

const act = (action) => post('/seat/action', { text: action.text });
$('hint-button').addEventListener('click', () => post('/seat/hint', {}));
// Another phone asks for this seat: only its holder gives it away (a remote seat's opponent
// sits at the table).
$('handover-keep').addEventListener('click', () => post('/seat/handover', { allow: false }));
$('handover-give').addEventListener('click', () => post('/seat/handover', { allow: true }));
const answer = (body) => post('/seat/answer', body);

// -- the stream ---------------------------------------------------------------------------------

function badge(text) {
  const el = $('connection');
  el.hidden = !text;
  el.textContent = text || '';
}

function loseSeat(message) {
  lost = message;
  if (source) source.close();
  source = null;
  badge('');
  render();
}

// The server sends the whole view on every connection, so a phone that slept catches up.
function connect() {
  source = new EventSource('/seat/events');
  source.addEventListener('open', () => badge(''));
  const onView = viewHandler(show);   // each connection starts from a whole view
  source.addEventListener('view', (e) => onView(JSON.parse(e.data)));
  source.addEventListener('left', (e) => loseSeat(`This phone lost the seat (${JSON.parse(e.data).reason}). Scan the code on the companion to take it back.`));
  source.addEventListener('error', () => {
    badge('Connection lost, reconnecting…');
    // The browser retries a dropped stream itself, but not a refused one: find out why.
    if (source && source.readyState === EventSource.CLOSED) setTimeout(recheck, 2000);
  });
}

async function recheck() {
  if (lost) return;
  try {
    const response = await fetch('/seat/view', { cache: 'no-store' });
    if (response.status === 403) {
      loseSeat('This phone no longer holds a seat. Scan the code on the companion to join.');
      return;
    }
  } catch { /* the companion is unreachable: try again */ }
  connect();
}

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && !lost && (!source || source.readyState === EventSource.CLOSED)) {
    recheck();
  }
});

show(view);
connect();
