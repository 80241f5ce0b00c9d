// The waiting page of a phone asking for a seat another phone holds: ask the server every
// second until the table has pressed A (then go to the seat) or B, or the request ran out.
const state = document.getElementById('join-state');
const seat = state.dataset.seat;
const stop = document.getElementById('join-cancel');
let done = false;
const MESSAGES = {
  withdrawn: 'You stopped asking: the seat stays with the other phone. Scan the code again to ask once more.',
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
  if (done) return;
  if (answer.state === 'allowed') {
    done = true;
    window.location.replace('/seat');
  } else if (answer.state === 'waiting') {
    setTimeout(poll, 1000);
  } else {
    finish(MESSAGES[answer.state]);
  }
}

function finish(text) {
  done = true;
  stop.hidden = true;
  state.textContent = text;
}

// Giving up, by the button or by leaving the page: the companion stops asking the table at
// once (a page that just stops asking is only missed after a few seconds).
function cancel() {
  if (done) return;
  fetch('/join/cancel', { method: 'POST', keepalive: true, headers: { 'Content-Type': 'application/json' }, body: '{}' })
    .catch(() => {});
}
stop.addEventListener('click', () => { cancel(); finish(MESSAGES.withdrawn); });
window.addEventListener('pagehide', cancel);

poll();
