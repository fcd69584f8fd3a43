"""Which way round a fact goes, read by every direction rule in turn: routes ("to" / "from"),
voice (who acts on whom), senders and receivers, swapped pairs, steps and stages.

One entry point, so ``agreement`` reads a reversed direction as one conflict kind however it
was found; each rule lives in the module for its shape.
"""

from __future__ import annotations

from memory_mcp.services import (
    agents,
    away_from,
    chosen,
    contacts,
    crossed_objects,
    crossed_pairs,
    crossed_values,
    direction,
    doers,
    framed,
    means_order,
    ours,
    poured,
    received,
    route_ends,
    steps,
    voice,
    voiced,
)
from memory_mcp.services.facets import Facets


def other_direction(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) of the first rule that reads the two texts the other way round,
    else None. Cheaper and more frequent shapes first."""
    return direction.reversed_route(a, b) or voice.turned_voice(a, b) \
        or doers.turned_sender(a, b) or doers.by_or_to(a, b) or doers.source_subject(a, b) \
        or ours.us_turned(a, b) or direction.converse_verb(a, b) \
        or received.got_or_sent(a, b) or received.taken_or_collected(a, b) \
        or received.received_or_shipped(a, b) or route_ends.other_route(a, b) \
        or route_ends.up_or_down(a, b) or route_ends.points_turned(a, b) \
        or crossed_pairs.crossed_pair(a, b) \
        or crossed_pairs.swapped_ends(a, b) or crossed_pairs.swapped_order(a, b) \
        or crossed_values.crossed_values(a, b) \
        or chosen.swapped_choice(a, b) or framed.swapped_shares(a, b) \
        or crossed_pairs.swapped_to(a, b) or crossed_pairs.swapped_from(a, b) \
        or steps.swapped_steps(a, b) or steps.swapped_stages(a, b) or steps.swapped_sides(a, b) \
        or steps.swapped_then(a, b) or poured.swapped_into(a, b) \
        or steps.swapped_around(a, b) or means_order.swapped_means(a, b) \
        or away_from.turned_away(a, b) \
        or steps.swapped_object(a, b) or steps.before_or_once(a, b) or steps.named_first(a, b) \
        or voiced.turned_subject(a, b) or contacts.turned_contact(a, b) \
        or agents.swapped_agents(a, b) or agents.taken_from(a, b) \
        or crossed_objects.swapped_things(a, b) or agents.other_holder(a, b)
