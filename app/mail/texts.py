"""The words of every e-mail, in the client's three languages (cs, de, en).

Plain text only. Every field that comes from a person (a name, a table's name) has been checked
printable where it was stored; the message builder refuses line breaks in headers besides.
"""

from __future__ import annotations

from typing import Literal

Lang = Literal["cs", "de", "en"]
LANGS: tuple[Lang, ...] = ("cs", "de", "en")

Words = dict[str, str]

CATALOGUES: dict[Lang, Words] = {
    "en": {
        "address_changed.subject": "Your e-mail address for Crown of Emara was changed",
        "address_changed.body": "the e-mail address of your profile on Crown of Emara was "
        "changed {when} (UTC): this address gets no more mail from us.\n\nIf this was not "
        'you, open the profile menu on one of your devices and choose "Sign out on every '
        'other device": it can remove the address and the passkeys added since as well.',
        "greeting": "Hello {name},",
        "table_of": "{host}'s table",
        "table_named": "“{name}”",
        "confirm.subject": "Confirm your e-mail address for Crown of Emara",
        "confirm.body": "please confirm that Crown of Emara may write to this address. Open "
        "this link within {minutes} minutes:\n\n{link}\n\nIf you did not ask for this, ignore "
        "this message: nothing more will be sent here.",
        "signin.subject": "Sign in to Crown of Emara",
        "signin.body": "open this link on the device you want to play on, within {minutes} "
        "minutes. It works once:\n\n{link}\n\nIf you did not ask for it, ignore this message: "
        "nobody can sign in without the link.",
        "your_turn.subject": "Your turn: {table}",
        "your_turn.body": "it is your turn at {table}.\n\n{link}",
        "your_turn.body_left": "it is your turn at {table}. You have {left} left for your "
        "move.\n\n{link}",
        "digest.subject.one": "{count} game is waiting for you",
        "digest.subject.other": "{count} games are waiting for you",
        "digest.body": "it is your turn at these tables:",
        "digest.line": "- {table}: {link}",
        "digest.line_left": "- {table} ({left} left): {link}",
        "time_short.subject": "Your time runs out in an hour: {table}",
        "time_short.body": "your time at {table} runs out in less than an hour. If it runs "
        "out, a bot plays your seat until you take it back.\n\n{link}",
        "game_over.subject": "The game is over: {table}",
        "game_over.body": "the game at {table} ended {date}. You finished {place} {of} with "
        "{points}.\n\nFinal score:\n{standings}\n\n{link}",
        "you": "you",
        "bot": "Bot",
        "rematch.subject": "{inviter} asks for a rematch",
        "rematch.body": "{inviter} asks to play again at {table} with the same people. Open "
        "the new table to accept or decline (if the page asks who you are, sign in first):"
        "\n\n{link}",
        "invite.subject": "{inviter} invites you to a table",
        "invite.body": "{inviter} invites you to {table}. Open the table to accept or decline "
        "(if the page asks who you are, sign in first):\n\n{link}",
        "footer": "You get this e-mail because you asked Crown of Emara for game notifications. "
        "Stop them with one click: {link}",
    },
    "de": {
        "address_changed.subject": "Deine E-Mail-Adresse bei Crown of Emara wurde geändert",
        "address_changed.body": "die E-Mail-Adresse deines Profils bei Crown of Emara wurde "
        "{when} (UTC) geändert: an diese Adresse schreiben wir nicht mehr.\n\nWarst du das "
        "nicht, öffne auf einem deiner Geräte das Profilmenü und wähle „Auf allen anderen "
        "Geräten abmelden“: Das kann auch die seither hinzugefügte Adresse und Passkeys "
        "entfernen.",
        "greeting": "Hallo {name},",
        "table_of": "Tisch von {host}",
        "table_named": "Tisch „{name}“",
        "confirm.subject": "Bestätige deine E-Mail-Adresse für Crown of Emara",
        "confirm.body": "bitte bestätige, dass Crown of Emara dir an diese Adresse schreiben "
        "darf. Öffne diesen Link innerhalb von {minutes} Minuten:\n\n{link}\n\nWenn du das nicht "
        "angefordert hast, ignoriere diese Nachricht: Es kommt nichts weiter.",
        "signin.subject": "Bei Crown of Emara anmelden",
        "signin.body": "öffne diesen Link innerhalb von {minutes} Minuten auf dem Gerät, auf dem "
        "du spielen willst. Er funktioniert einmal:\n\n{link}\n\nWenn du ihn nicht angefordert "
        "hast, ignoriere diese Nachricht: Ohne den Link kann sich niemand anmelden.",
        "your_turn.subject": "Du bist am Zug: {table}",
        "your_turn.body": "am {table} bist du am Zug.\n\n{link}",
        "your_turn.body_left": "am {table} bist du am Zug. Du hast noch {left} für deinen "
        "Zug.\n\n{link}",
        "digest.subject.one": "{count} Spiel wartet auf dich",
        "digest.subject.other": "{count} Spiele warten auf dich",
        "digest.body": "an diesen Tischen bist du am Zug:",
        "digest.line": "- {table}: {link}",
        "digest.line_left": "- {table} (noch {left}): {link}",
        "time_short.subject": "Deine Zeit läuft in einer Stunde ab: {table}",
        "time_short.body": "deine Zeit am {table} läuft in weniger als einer Stunde ab. Wenn "
        "sie abläuft, spielt ein Bot für dich weiter, bis du deinen Platz zurücknimmst.\n\n{link}",
        "game_over.subject": "Das Spiel ist vorbei: {table}",
        "game_over.body": "das Spiel am {table} ist {date} zu Ende gegangen. Du hast {points} "
        "erreicht und Platz {place} {of} belegt.\n\nEndstand:\n{standings}\n\n{link}",
        "you": "du",
        "bot": "Bot",
        "rematch.subject": "{inviter} möchte eine Revanche",
        "rematch.body": "{inviter} möchte mit denselben Leuten noch einmal spielen, am "
        "{table}. Öffne den neuen Tisch, um zu- oder abzusagen (fragt die Seite, wer du bist, "
        "melde dich zuerst an):\n\n{link}",
        "invite.subject": "{inviter} lädt dich an einen Tisch ein",
        "invite.body": "{inviter} lädt dich an den {table} ein. Öffne den Tisch, um zu- oder "
        "abzusagen (fragt die Seite, wer du bist, melde dich zuerst an):\n\n{link}",
        "footer": "Du bekommst diese E-Mail, weil du bei Crown of Emara Spielnachrichten "
        "bestellt hast. Mit einem Klick abbestellen: {link}",
    },
    "cs": {
        "address_changed.subject": "Vaše e-mailová adresa v Crown of Emara byla změněna",
        "address_changed.body": "e-mailová adresa vašeho profilu v Crown of Emara byla "
        "{when} (UTC) změněna: na tuto adresu už nic posílat nebudeme.\n\nPokud jste to "
        "nebyli vy, otevřete na některém svém zařízení nabídku profilu a zvolte „Odhlásit na "
        "všech ostatních zařízeních“: může přitom odebrat i adresu a přístupové klíče "
        "přidané od té doby.",
        # A name stays as it is written: the greeting does without it (no vocative to guess).
        "greeting": "Dobrý den,",
        "table_of": "stůl hráče {host}",
        "table_named": "stůl „{name}“",
        # the genitive (and dative): "u stolu …", "ke stolu …"
        "table_of.gen": "stolu hráče {host}",
        "table_named.gen": "stolu „{name}“",
        "confirm.subject": "Potvrďte svou e-mailovou adresu pro Crown of Emara",
        "confirm.body": "potvrďte prosím, že vám Crown of Emara smí psát na tuto adresu. "
        "Otevřete tento odkaz do {minutes} minut:\n\n{link}\n\nPokud jste o to nežádali, zprávu "
        "ignorujte: nic dalšího sem nepřijde.",
        "signin.subject": "Přihlášení do Crown of Emara",
        "signin.body": "otevřete tento odkaz do {minutes} minut na zařízení, na kterém chcete "
        "hrát. Funguje jednou:\n\n{link}\n\nPokud jste o něj nežádali, zprávu ignorujte: bez "
        "odkazu se nikdo nepřihlásí.",
        "your_turn.subject": "Jste na tahu: {table}",
        "your_turn.body": "u {table_gen} jste na tahu.\n\n{link}",
        "your_turn.body_left": "u {table_gen} jste na tahu. Na tah máte ještě {left}.\n\n{link}",
        "digest.subject.one": "Čeká na vás {count} hra",
        "digest.subject.few": "Čekají na vás {count} hry",
        "digest.subject.other": "Čeká na vás {count} her",
        "digest.body": "u těchto stolů jste na tahu:",
        "digest.line": "- {table}: {link}",
        "digest.line_left": "- {table} (na tah máte ještě {left}): {link}",
        "time_short.subject": "Za hodinu vám vyprší čas: {table}",
        "time_short.body": "u {table_gen} vám za méně než hodinu vyprší čas. Když vyprší, "
        "bude za vás hrát bot, dokud se na své místo nevrátíte.\n\n{link}",
        "game_over.subject": "Hra skončila: {table}",
        "game_over.body": "hra u {table_gen} skončila {date}. Získali jste {points} a skončili "
        "na {place} místě {of}.\n\nKonečné pořadí:\n{standings}\n\n{link}",
        "you": "vy",
        "bot": "Bot",
        "rematch.subject": "{inviter} chce odvetu",
        "rematch.body": "{inviter} chce hrát znovu se stejnými lidmi, u {table_gen}. Otevřete "
        "nový stůl a odvetu přijměte nebo odmítněte (pokud se stránka zeptá, kdo jste, "
        "nejdřív se přihlaste):\n\n{link}",
        "invite.subject": "{inviter} vás zve ke stolu",
        "invite.body": "{inviter} vás zve ke {table_gen}. Otevřete stůl a pozvání přijměte "
        "nebo odmítněte (pokud se stránka zeptá, kdo jste, nejdřív se přihlaste):\n\n{link}",
        "footer": "Tento e-mail dostáváte, protože jste si v Crown of Emara objednali herní "
        "upozornění. Jedním kliknutím je zrušíte: {link}",
    },
}


def lang_of(code: str | None) -> Lang:
    for lang in LANGS:
        if code == lang:
            return lang
    return "en"


def plural(lang: Lang, count: int) -> str:
    """The plural category (as Intl.PluralRules names them) of ``count`` in ``lang``."""
    if lang == "cs":
        return "one" if count == 1 else "few" if 2 <= count <= 4 else "other"
    return "one" if count == 1 else "other"


def say(lang: Lang, key: str, **fields: object) -> str:
    catalogue = CATALOGUES[lang]
    text = catalogue.get(key) or CATALOGUES["en"][key]
    return text.format(**{k: str(v) for k, v in fields.items()})


def table_label(lang: Lang, name: str | None, host: str | None, case: str = "nom") -> str:
    """A table as a message names it: its name (quoted), else whose table it is; in Czech the
    genitive too (``case="gen"``: "u stolu …")."""
    key = "table_named" if name else "table_of"
    if case != "nom" and f"{key}.{case}" in CATALOGUES[lang]:
        key = f"{key}.{case}"
    return say(lang, key, name=name or "", host=host or "?")


def table_fields(lang: Lang, name: str | None, host: str | None) -> dict[str, str]:
    """The ``{table}`` and ``{table_gen}`` of a message's sentences."""
    return {
        "table": table_label(lang, name, host),
        "table_gen": table_label(lang, name, host, "gen"),
    }


def digest_subject(lang: Lang, count: int) -> str:
    key = f"digest.subject.{plural(lang, count)}"
    if key not in CATALOGUES[lang]:
        key = "digest.subject.other"
    return say(lang, key, count=count)
