"""Two- and three-word phrases that the opposite-word lexicon reads as one form ("cut back",
"fitted on", "facing up"): apart from ``opposite_words`` because they grow with every set that
finds a phrase whose words alone say nothing ("up", "off", "back")."""

from __future__ import annotations

#: Two words (three with the last) read as one form of the lexicon: (first words, second
#: words, the word after them or "", the form). "irrigation is **cut back** to 50%" /
#: "… increased by 50%" (the hundred-and-thirty-first set), "kept **at body temperature**" /
#: "kept chilled" (the 137th), "**kept on file**" / "shredded once scanned" (the 134th),
#: "**gets back** to the kennels at 09:30" / "leaving the kennels at 09:30" (the 130th).
WORD_PAIRS = tuple((frozenset(x.split()), frozenset(y.split()), third, form)
                   for x, y, third, form in (
    ("cut cuts cutting", "back", "", "reduce"),
    ("body", "temperature temp", "", "body_temperature"),
    ("kept keep keeps", "on", "file", "kept_on_file"),
    ("get gets got getting come comes came coming", "back", "", "return"),
    # "blue shells were **brought back**" / "… were discontinued" (the 259th set)
    ("bring brings brought bringing", "back", "", "reintroduce"),
    # "Hamish **brings** the heats **forward** by an hour" / "… **postpones** the heats …"
    # (the 272nd set)
    ("bring brings brought bringing move moves moved moving", "forward forwards", "",
     "bring_forward"),
    # "answered **outside opening hours**" / "… **during opening hours**" (the 261st set)
    ("outside", "opening office working business", "hours", "after_hours"),
    ("during within", "opening office working business", "hours", "working_hours"),
    # "cleared **unless** the family asks" / "… **even when** the family asks": the exception
    # one text makes, the other denies
    ("even", "if when though after during before", "", "even_if"),
    # "… **unless** the room is hired" / "… **only when** the room is hired": the exception one
    # text makes is the other's only case (the 283rd-285th sets)
    ("only", "if when whenever", "", "only_if"),
    ("least", "one 1", "", "at_least_one"),
    # "filters are **single use**" / "… are reusable after cleaning" (the 547th set)
    ("single", "use", "", "single_use"),  # "**at least one** truck" / "every truck"
    # "the crank handle is **fitted on** before …" / "… is **taken off** before loading" (278th)
    ("fit fits fitted fitting", "on", "", "put_on"),
    # "staff … **stay on** the rota" / "… are **taken off** the rota" (the 551st set)
    ("stay stays stayed staying remain remains remained", "on", "", "stay_on"),
    # "patients **may keep** hand warmers" / "… must **remove** all hand warmers" (546th)
    ("may can", "keep", "", "may_keep"),
    ("take takes took taken taking", "off", "", "take_off"),
    # "trophies must be **dropped off** at the shop" / "… **collected** from their shop" (292nd)
    ("drop drops dropped dropping", "off", "", "drop_off"),
    # "glassine between **every other** sheet" / "… between **each** sheet" (the 291st set)
    ("every", "other", "", "every_other"),
    # "the account is **put on** credit hold" / "… **released from** credit hold" (the 517th)
    ("release releases released releasing", "from", "", "released_from"),
    ("place places placed placing", "on", "", "placed_on"),
    # "the speed restriction **stays in place** until …" / "… **is lifted** straight away"
    # (the 522nd set); "searches **are limited to** granted patents" / "… **exclude** granted
    # patents" (the 527th)
    ("stays stay stayed remains remain remained kept keep left", "in", "place", "in_place"),
    ("limited restricted confined", "to", "", "limited_to"),
    # "stored **together with** the organic acids" / "kept **separate from** organic acids"
    # (the 531st set)
    ("together", "with", "", "together_with"),
    # "uploaded **on the day of** inspection" / "… **on the day after** inspection" (the 536th)
    ("day", "of", "", "day_of"),
    ("day", "after", "", "day_after"),
    ("separate separately apart", "from", "", "separate_from"),
    # "a rush order **costs an extra** £200" / "… gets a £200 discount" (the 276th set)
    ("cost costs charge charges charged pay pays", "an", "extra", "surcharge"),
    # "the van **leaves for** the café at 05:45" / "… **arrives at** the café at 05:45"
    ("leave leaves leaving", "for", "", "leaves_for"),
    # "the shade cloth **goes up**" / "… **comes down**": raised and lowered
    ("go goes went gone going come comes came coming", "up", "", "rise"),
    ("go goes went gone going come comes came coming", "down", "", "fall"),
    # "… at 72 bpm before **moving up** to 88" / "… before **moving down** to 72" (the 282nd)
    ("move moves moved moving", "up", "", "rise"),
    # "the air conditioner **kicks in** at 22 °C" / "… **switches off** at 22 °C" (the 311th)
    ("kick kicks kicked kicking", "in", "", "switch_on"),
    ("move moves moved moving", "down", "", "fall"),
    # "the flood boards **are taken down** whenever …" / "… **go up** whenever …"
    ("take takes took taken taking", "down", "", "fall"),
    ("put puts putting", "up", "", "rise"),
    # "floor models are **marked up** by 20%" / "… **discounted** by 20%", "**signs off** the
    # first roll" / "**rejects** …", "**kept for** the next service" / "**thrown away**" (the
    # 338th-343rd sets)
    ("mark marks marked marking", "up", "", "mark_up"),
    ("sign signs signed signing", "off", "", "approve"),
    ("kept keep keeps keeping", "for", "the", "kept_for"),  # not "keeps for 24 hours"
    ("throw throws threw thrown throwing", "away out", "", "discard"),
    # "griptape **costs extra**" / "griptape is applied **free of charge**" (the 344th set)
    ("cost costs costing", "extra", "", "chargeable"),
    # "flights **go ahead** if …" / "flights are **cancelled** if …", "called off" the same
    # (the 358th set)
    ("go goes went gone going", "ahead", "", "go_ahead"),
    ("call calls called calling", "off", "", "called_off"),
    ("put puts putting", "on", "hold", "on_hold"),  # "jumps are **put on hold**" (the 372nd)
    # "the guideline **turns right** at the T-junction" / "… **turns left** …" (the 357th set):
    # "left" alone is also "leave"'s past, "right" alone also "correct", so a side is read only
    # after a word that turns to it or places a thing on it
    ("turn turns turned turning bear bears veer veers keep keeps swing swings the", "left", "",
     "left_side"),
    ("turn turns turned turning bear bears veer veers keep keeps swing swings the", "right", "",
     "right_side"),
    # "the second layer runs **parallel to** the joists" / "… **at right angles to** …", "when
    # the clocks **go forward**" / "… **go back** in October" (the 389th and 385th sets)
    ("right", "angles angle", "", "right_angles"),
    ("go goes went gone going spring springs", "forward forwards", "", "go_forward"),
    ("go goes went gone going fall falls", "back", "", "go_back"),
    # "piling **carries on** when gusts exceed …" / "piling **stops** when …" (the 438th set)
    ("carry carries carried carrying", "on", "", "carry_on"),
    # "the hose outlet **facing up**" / "… **facing down**" (the 427th set)
    ("face faces faced facing point points pointed pointing", "up upward upwards", "", "face_up"),
    ("face faces faced facing point points pointed pointing", "down downward downwards", "",
     "face_down"),
    # "rewound with the emulsion side **facing in**" / "… **facing out**" (the 548th set)
    ("face faces faced facing point points pointed pointing", "in inward inwards", "", "face_in"),
    ("face faces faced facing point points pointed pointing", "out outward outwards", "",
     "face_out"),
    # "swapped after 3 months, **whichever comes first**" / "… **whichever comes later**" (the
    # 478th set): the earlier or the later of two limits
    *(("whichever", "comes come is happens occurs", end, form) for end, form in (
        ("first", "whichever_first"), ("sooner", "whichever_first"),
        ("earlier", "whichever_first"), ("later", "whichever_last"),
        ("last", "whichever_last"), ("latest", "whichever_last"))),
    # "to **vote for** say-on-pay proposals" / "… **vote against** …" (the 479th set), and
    # "charged for it" / "at **no cost** to them" (the 474th)
    ("vote votes voted voting", "for", "", "vote_for"),
    ("vote votes voted voting", "against", "", "vote_against"),
    ("in", "favour favor", "of", "vote_for"),
    ("no", "cost charge", "", "free"),
    # "flags … must be **kept in** the codebase" / "… **removed from** the codebase" (the
    # 490th set); "kept" or "removed" alone says too little ("Remove the warning that …")
    ("kept keep keeps retained", "in", "", "kept_in"),
    ("removed remove removes deleted", "from", "", "removed_from"),
))
