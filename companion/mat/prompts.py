"""Questions to the players: the prompt a set of explanations asks, and which mat button or
phone answer picks which option. Pure functions over the prompt as emitted."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ..rules.position import COLORS
from .events import Prompt


def build_prompt(seats: Mapping[str, int], first: int, takeback: str | None,
                 slot: Callable[[str, int], int]) -> Prompt:
    """The prompt for options ``seats`` (option -> the seat it belongs to): ``first``'s own
    cards in hand order, the takeback, then the other seat's cards as a reply."""
    own = sorted((k for k, s in seats.items() if s == first and k != "takeback"),
                 key=lambda c: slot(c, first))
    prompt: Prompt = {"seat": COLORS[first], "choose": own}
    if takeback is not None:
        prompt["takeback"] = takeback
    others = sorted((k for k, s in seats.items() if s != first and k != "takeback"),
                    key=lambda c: slot(c, 1 - first))
    if others:
        prompt["reply"] = {"seat": COLORS[1 - first], "choose": others}
    return prompt


def button_choice(prompt: Prompt, options: Mapping[str, object], hand: Sequence[str],
                  name: str) -> str | None:
    """The option mat button ``name`` picks: A or B the first or second card of the prompted
    player's ``hand``; C the takeback when offered, else the other player's one reply."""
    reply = prompt.get("reply", {}).get("choose", [])
    c = "takeback" if "takeback" in options else reply[0] if len(reply) == 1 else None
    key = {"A": hand[0], "B": hand[1] if len(hand) > 1 else None, "C": c}.get(name)
    if key in options and (name == "C" or key in prompt["choose"]):
        return key
    return None


def allowed_answers(prompt: Prompt, seat: str) -> list[str]:
    """What ``seat`` may answer on its phone: the prompted seat its cards (and the takeback),
    the replying seat its own cards."""
    if seat == prompt["seat"]:
        return [*prompt["choose"], *(["takeback"] if "takeback" in prompt else [])]
    if seat == prompt.get("reply", {}).get("seat"):
        return list(prompt["reply"]["choose"])
    return []
