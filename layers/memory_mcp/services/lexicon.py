"""The words the agreement rules know: stop words, negations, environments, parts of the day,
weekdays, months, number words, units, short forms and currencies.

Apart from ``facets.py`` (which reads a text with them) because a lexicon is data that grows
with every set of near misses, while the reading is code; keeping them apart keeps both small.
"""

from __future__ import annotations

import re

#: Short forms teams write for the same word: read as it, so "the WMS **DB**" is "the WMS
#: **database**" and "**k8s** clusters" are "**Kubernetes** clusters" to every rule.
ABBREVIATIONS = {"db": "database", "dbs": "databases", "k8s": "kubernetes", "repo": "repository",
                 "repos": "repositories", "env": "environment", "envs": "environments",
                 "config": "configuration", "configs": "configurations", "docs": "documentation",
                 "msg": "message", "msgs": "messages", "info": "information",
                 "mgr": "manager", "dept": "department", "sms": "text message",
                 "st": "street", "rd": "road", "ave": "avenue",
                 "lt": "lieutenant", "sgt": "sergeant", "capt": "captain", "cpl": "corporal",
                 "insp": "inspector", "supt": "superintendent", "cmdr": "commander",
                 "admin": "administrator", "admins": "administrators",
                 "ack": "acknowledgement", "acks": "acknowledgements",
                 "acked": "acknowledged", "2fa": "two-factor authentication",
                 "mfa": "multi-factor authentication", "ta": "teaching assistant",
                 "tas": "teaching assistants", "techs": "technicians",
                 "appt": "appointment", "appts": "appointments", "rh": "relative humidity",
                 "kg": "kilograms", "ops": "operations", "op": "operator",
                 "ssgt": "staff sergeant", "btc": "bitcoin", "e.g": "like",
                 "pub": "publication",
                 # units of measure written out, so "30 kilos" / "30 kilograms" agree
                 "kilo": "kilograms", "kilos": "kilograms", "kilogram": "kilograms",
                 "kilometre": "kilometers", "kilometres": "kilometers",
                 "kilometer": "kilometers", "mile": "miles", "kilobyte": "kilobytes",
                 "megabyte": "megabytes", "gigabyte": "gigabytes", "terabyte": "terabytes",
                 "kilowatt": "kilowatts", "megawatt": "megawatts", "litre": "liters",
                 "litres": "liters", "liter": "liters", "gallon": "gallons"}
#: Unit symbols, read as their unit only after a number ("50 **GB**" is 50 gigabytes; "ships
#: to **GB**" names a country, "**MI**" a state, "**TB**" a disease).
UNIT_SYMBOLS = {"kg": "kilograms", "kgs": "kilograms", "ha": "hectares", "acre": "acres",
                "hectare": "hectares", "lb": "pounds", "lbs": "pounds",
                "km": "kilometers", "mi": "miles", "kb": "kilobytes", "mb": "megabytes",
                "gb": "gigabytes", "tb": "terabytes", "km/h": "kph", "kmh": "kph",
                "kph": "kph", "mph": "mph", "kn": "knots", "kt": "knots", "kts": "knots",
                "km/hr": "kph", "kmph": "kph", "kms/h": "kph", "kw": "kilowatts",
                "mw": "megawatts", "kwh": "kilowatt-hours", "mwh": "megawatt-hours",
                "l": "liters", "gal": "gallons", "ft": "feet", "foot": "feet",
                "kilometres": "kilometers", "kilometre": "kilometers", "kilometer": "kilometers",
                "metres": "meters", "metre": "meters", "meter": "meters",
                "cm": "centimeters", "centimetres": "centimeters", "centimetre": "centimeters",
                "centimeter": "centimeters", "mm": "millimeters", "millimetres": "millimeters",
                "millimetre": "millimeters", "millimeter": "millimeters",
                "kilowatt": "kilowatts", "megawatt": "megawatts",
                # "fan kits draw 1.2 **amps**" / "… 1.2 **watts**" (the 351st set)
                "w": "watts", "watt": "watts", "watts": "watts", "amp": "amperes",
                "amps": "amperes",
                "ampere": "amperes", "amperes": "amperes",
                # apparent power: "generators over 20 **kVA**" / "… 20 **kW**" (the 245th set)
                "kva": "kilovolt-amperes",
                # concentrations and pressures: "alarms at 10 **ppm**" / "… 10 **mg/m³**"
                "ppm": "ppm", "ppb": "ppb", "mg/m³": "mg/m3", "mg/m3": "mg/m3",
                "mg/l": "mg/l", "psi": "psi", "bar": "bar", "kpa": "kilopascals",
                "g": "grams", "gram": "grams", "grams": "grams",
                # torques: "torqued to 110 **Nm**" / "… 110 **ft-lb**" (the thirty-ninth set)
                "nm": "nm", "newton-metres": "nm", "newton-meters": "nm", "ft-lb": "ft-lb",
                "ft-lbs": "ft-lb", "lb-ft": "ft-lb", "lbf-ft": "ft-lb",
                # "120 **m** altitude" is metres (minutes are "min", millions "$2m"), "31 **t**"
                # tonnes; "ml" and its words, as "3 mm" and its words already were
                "m": "meters", "t": "tonnes", "tonne": "tonnes", "tonnes": "tonnes",
                "ml": "milliliters", "millilitre": "milliliters", "millilitres": "milliliters",
                "milliliter": "milliliters", "milliliters": "milliliters",
                # doses per volume: "30 **g/hL**" / "30 **mg/L**" (the fifty-third set)
                "g/hl": "g/hl", "g/l": "g/l", "mg/kg": "mg/kg",
                # "110 **V** DC" / "110 **volts** DC" (the hundred-and-twenty-fifth set)
                "v": "volts", "volt": "volts", "volts": "volts", "kv": "kilovolts",
                "kilovolt": "kilovolts", "kilovolts": "kilovolts"}
#: Units read as a multiple of another, so "a 1.5 km zone" / "1,500 metres", "6.5 cm" /
#: "65 mm" and "1.5 MW" / "1,500 kW" agree.
SCALED = {"kilometers": ("meters", 1000.0), "centimeters": ("millimeters", 10.0),
          "megawatts": ("kilowatts", 1000.0)}
#: A number and a unit of measure written as one token ("30kg", "10GB", "-18C"), and the unit
#: it reads as (``ABBREVIATIONS`` or a temperature scale). Not "mm": "35mm" and "16mm" are
#: film gauges and lenses as often as lengths.
COMPACT_MEASURE = re.compile(r"(\d+(?:\.\d+)?)(kg|lbs?|km|mi|kb|mb|gb|tb|cm|ml|kv|v|w|c|f)",
                             re.IGNORECASE)
MEASURE_UNITS = {"c": "celsius", "f": "fahrenheit"}
#: The units of measure a number may carry, as the rules spell them: two texts giving one
#: number in two of them state two values ("-18 celsius" / "-18 fahrenheit").
MEASURES = frozenset(["celsius", "fahrenheit", "kilograms", "pounds", "kilometers", "miles",
                      "kilobytes", "megabytes", "gigabytes", "terabytes", "kph", "mph",
                      "knots", "kilowatts", "megawatts", "kilowatt-hours", "megawatt-hours",
                      "liters", "gallons", "feet", "meters", "centimeters", "millimeters",
                      "ppm", "ppb", "mg/m3", "mg/l", "psi", "bar", "kilopascals", "grams",
                      "nm", "ft-lb", "tonnes", "milliliters", "g/hl", "g/l", "mg/kg", "volts",
                      "kilovolts", "acres", "hectares", "kilovolt-amperes", "watts",
                      "amperes"])
#: Words between a count and its unit that leave the span as it is: "absent for 10
#: **consecutive** weeks" / "for 10 weeks" (the 520th set); "working" days are other days.
RUNNING = frozenset(["consecutive", "straight", "continuous", "calendar", "full", "whole"])
#: Time zones, read as their name only after a time ("6:30 am **ET**" is "6:30 am Eastern";
#: "the **CT** scanner" is no zone).
ZONES = {"et": "Eastern", "est": "Eastern", "edt": "Eastern", "pt": "Pacific",
         "pst": "Pacific", "pdt": "Pacific", "ct": "Central", "cst": "Central",
         "cdt": "Central"}

STOP_WORDS = frozenset("""
a about above after again all also am an and any are as at be because been before being below
between both but by can could did do does doing down during each every few for from further
had has have having he her here hers herself him himself his how i if in into is it its itself
just me more most my myself of off on once only or other our ours ourselves out over own same
she should so some such than that the their theirs them themselves then there these they this
those through to too under until up very was we were what when where which while who whom why
will with would you your yours yourself yourselves get gets got must may might shall via per
within across along among around behind beyond despite inside onto outside since toward
towards upon versus whereas whether though although unless rather always usually often
sometimes still already yet ever even also
i'm i've i'll i'd we're we've we'll we'd you're you've you'll you'd they're they've they'll they'd
he'll he'd she'll she'd let's pm
""".split())  # noqa: SIM905

NEGATIONS = frozenset("""
not no never none nobody nothing neither nor without cannot except n't isn't aren't wasn't weren't
don't doesn't didn't can't couldn't won't wouldn't shouldn't hasn't haven't hadn't mustn't
lack lacks lacked lacking
""".split())  # noqa: SIM905

#: Words naming a deployment environment: two texts about different ones are different facts.
ENVIRONMENTS = {"production": "production", "prod": "production", "staging": "staging",
                "stage": "staging", "dev": "development", "development": "development",
                "qa": "qa", "test": "test", "testing": "test", "sandbox": "sandbox",
                "preview": "preview", "uat": "uat", "beta": "beta",
                "simulator": "simulator", "emulator": "simulator",
                "prototype": "prototype"}  # "the **prototype** cell's light curtain" (450th)
#: Words that name an environment before a system's noun ("the PMS **training** environment",
#: "the POS **training** system", "the LeadsOnline **training** portal", "console 2 in the
#: **training** room") or after "environment for": only these, since most words
#: there name no environment ("a quiet environment", "a controlled environment").
NAMED_ENVIRONMENTS = frozenset("""training demo perf performance integration preprod pre-prod
acceptance""".split())  # noqa: SIM905
SYSTEM_NOUNS = frozenset("""environment environments env system systems instance instances
tenant account site server database org cluster portal portals room rooms app
apps website""".split())  # noqa: SIM905

#: When in a day or how often: a value of a fact ("every Friday **morning**", "reports go out
#: **monthly**"), compared like weekdays; the word rules leave them to this one.
TIMES = {"morning": "morning", "mornings": "morning", "afternoon": "afternoon",
         "afternoons": "afternoon", "evening": "evening", "evenings": "evening",
         "night": "night", "nights": "night", "nightly": "night", "overnight": "night",
         "noon": "noon", "midday": "noon", "lunchtime": "noon", "lunchtimes": "noon",
         "midnight": "midnight", "hourly": "hourly",
         "daily": "daily", "weekly": "weekly", "biweekly": "biweekly",
         "fortnightly": "biweekly", "monthly": "monthly", "quarterly": "quarterly",
         "yearly": "yearly", "annually": "yearly", "annual": "yearly",
         # seasons ("only during the **winter** holidays"); not "spring" or "fall" (a
         # framework, a verb)
         "summer": "summer", "summers": "summer", "winter": "winter", "winters": "winter",
         "autumn": "autumn", "autumns": "autumn", "summertime": "summer",
         "wintertime": "winter"}
WEEKDAYS = {name: name[:3] for name in
            ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")}
WEEKDAYS.update({"mon": "mon", "tue": "tue", "tues": "tue", "wed": "wed", "thu": "thu",
                 "thur": "thu", "thurs": "thu", "fri": "fri"})
MONTHS = {name: name[:3] for name in
          ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")}
MONTHS.update({m[:3]: m[:3] for m in list(MONTHS) if m != "may"})
MONTHS.update({"sept": "sep"})

_SMALL_NUMBERS = """zero one two three four five six seven eight nine ten eleven twelve thirteen
fourteen fifteen sixteen seventeen eighteen nineteen twenty"""
NUMBER_WORDS: dict[str, float] = {w: float(i) for i, w in enumerate(_SMALL_NUMBERS.split())}
NUMBER_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
                     "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
                     "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
                     "half": 0.5, "once": 1, "twice": 2})
#: Number words that count ("four-hour blocks", "twenty-five"), not ranks or parts
#: ("first-aid", "half-day"), nor "once" / "twice".
CARDINALS: dict[str, int] = {w: int(v) for w, v in NUMBER_WORDS.items() if v >= 1
                             and float(v).is_integer()
                             and w not in ("first", "second", "third", "fourth", "fifth",
                                           "once", "twice")}
#: A number followed by one of these is a duration; durations compare in days, with slack.
UNIT_DAYS = {"millisecond": 1 / 86_400_000, "milliseconds": 1 / 86_400_000, "ms": 1 / 86_400_000,
             "second": 1 / 86_400, "seconds": 1 / 86_400, "sec": 1 / 86_400, "secs": 1 / 86_400,
             "min": 1 / 1440, "mins": 1 / 1440, "hr": 1 / 24, "hrs": 1 / 24,
             "minute": 1 / 1440, "minutes": 1 / 1440, "hour": 1 / 24, "hours": 1 / 24,
             "day": 1, "days": 1, "week": 7, "weeks": 7, "fortnight": 14, "fortnights": 14,
             "month": 30.44, "months": 30.44,
             "quarter": 91.31, "quarters": 91.31, "year": 365.25, "years": 365.25,
             # a school's term, a third of its year ("collected **every term**" / "… every
             # August for their annual tune-up", the 277th set), and its half-year semester
             "term": 121.75, "terms": 121.75, "semester": 182.63, "semesters": 182.63}
#: Currencies, by symbol, code or name: "$25" and "25 euros" are two amounts.
CURRENCY = re.compile(r"[$€£¥₹]|\b(?:usd|eur|gbp|jpy|chf|aud|cad|nzd|inr|sek|nok|dkk|pln"
                      r"|dollars?|euros?|yen|bucks|quid|rupees?|francs?)\b", re.IGNORECASE)
CURRENCIES = {"$": "usd", "usd": "usd", "dollar": "usd", "dollars": "usd", "bucks": "usd",
              "€": "eur", "eur": "eur", "euro": "eur", "euros": "eur", "£": "gbp", "gbp": "gbp",
              "quid": "gbp", "¥": "jpy", "jpy": "jpy", "yen": "jpy", "chf": "chf",
              "franc": "chf", "francs": "chf", "aud": "aud", "cad": "cad", "nzd": "nzd",
              "₹": "inr", "inr": "inr", "rupee": "inr", "rupees": "inr", "sek": "sek",
              "nok": "nok", "dkk": "dkk", "pln": "pln"}
#: A number and a unit written as one token: "30s", "200ms", "2h", "7d".
COMPACT = re.compile(r"(\d+(?:\.\d+)?)(ms|s|sec|secs|min|mins|h|hr|hrs|d)")
COMPACT_UNITS = {"ms": 1 / 86_400_000, "s": 1 / 86_400, "sec": 1 / 86_400, "secs": 1 / 86_400,
                  "min": 1 / 1440, "mins": 1 / 1440, "h": 1 / 24, "hr": 1 / 24, "hrs": 1 / 24,
                  "d": 1.0}

#: Ordinals, which name one thing of a row ("the third floor") as a word would.
ORDINAL = re.compile(r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
                     r"last|\d+(?:st|nd|rd|th)")

#: One job under two names.
ROLE_SYNONYMS = {"attorney": "lawyer", "counsel": "lawyer", "physician": "doctor",
                 "admin": "administrator", "dev": "developer", "veterinarian": "vet",
                 "counselor": "adviser", "counsellor": "adviser", "advisor": "adviser"}
#: Jobs people hold, as words (stems would join "manager" to "manage" and "officer" to
#: "office"): a text naming one and the other another names two people ("a **senior
#: associate** reviews" / "a **partner** reviews"). Left out: words that are also things
#: ("driver", "agent", "owner", "head") or verbs ("lead").
ROLE_NOUNS = frozenset("""
partner associate manager director engineer analyst editor teacher administrator
supervisor officer designer developer intern contractor architect coordinator clerk nurse
doctor technician representative assistant specialist consultant president
instructor professor lecturer foreman superintendent dispatcher pilot captain receptionist
accountant auditor paralegal lawyer scientist researcher tester maintainer reviewer
approver planner producer writer reporter principal liaison librarian curator ranger
radiologist radiographer sonographer
inspector surveyor registrar dean secretary treasurer paramedic pharmacist surgeon therapist
dentist hygienist mechanic electrician plumber chef cashier bartender concierge housekeeper
lifeguard referee tutor recruiter underwriter adjuster actuary broker
celebrant chaplain signaller signalman steward marshal usher verger glazier plasterer thatcher
apprentice labourer laborer keyholder trainee conservator organist choirmaster
groundsman greenkeeper farrier optometrist orthodontist groomer auctioneer
trainer vet warden porter mentor caretaker janitor midwife judge umpire chairman chairwoman
chairperson landlord landlady bookkeeper archivist deckhand stagehand rigger aider
""".split())  # noqa: SIM905
#: Words before a job that make it another job ("the **deputy** harbour master", "the
#: **associate** director of admissions"): one text with it and one without name two people.
RANKS = frozenset("""deputy assistant associate vice acting interim junior trainee senior
principal first-year second-year third-year fourth-year final-year""".split())  # noqa: SIM905
# "**first-year** apprentices may not use the bender" / "apprentices may not …" (the 457th set)
#: Common verbs of a team's facts. Two texts with one of these where the other has another say
#: what happens in other words ("the trucks **drive** the haul road" / "… **run** the haul
#: road", "before they **go into**" / "before **entering**"), as a reworded predicate does;
#: reading them from a list covers the clauses whose verb the word order does not show.
COMMON_VERBS = frozenset("""go goes went gone going enter entering run runs ran running drive
drives drove driven driving come comes came coming visit visits visited visiting take takes
took taken taking bring brings brought bringing send sends sent sending move moves moved
moving carry carries carried carrying handle handles handled handling manage manages managed
managing operate operates operated operating perform performs performed performing do does did
done doing make makes made making use uses used using work works worked working serve serves
served serving cover covers covered covering staff staffs staffed staffing lead leads led
leading own owns owned owning keep keeps kept keeping store stores stored storing hold holds
held holding submit submits submitted submitting file files filed filing log logs logged
logging record records recorded recording post posts posted posting put puts putting place
places placed placing need needs needed needing require requires required requiring check
checks checked checking review reviews reviewed reviewing inspect inspects inspected
inspecting arrive arrives arrived arriving return returns returned returning receive
receives received receiving get gets got""".split())  # noqa: SIM905
