// The waiting page of a phone asking for a seat another phone holds: ask the server every
// second until the table has pressed A (then go to the seat) or B, or the request ran out.
const state = document.getElementById('join-state');
const seat = state.dataset.seat;
const MESSAGES = {
  refused: `The table refused: the ${seat} seat stays with the other phone.`,
  expired: 'Nobody answered on the companion in time. Scan the code again to ask once more.',
};

async function poll() {
  let answer = null;
  try {
    const response = await fetch('/join/pending', { cache: 'no-store' });
    answer = await response.json();
    if (!response.ok) throw new Error(answer.error);
  } catch (err) {
    state.textContent = `Still waiting (${err.message || 'no answer from the companion'})…`;
    setTimeout(poll, 2000);
    return;
  }
  if (answer.state === 'allowed') {
    window.location.replace('/seat');
  } else if (answer.state === 'waiting') {
    setTimeout(poll, 1000);
  } else {
    state.textContent = MESSAGES[answer.state];
  }
}

poll();
