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
        "changed on {when} (UTC): this address gets no more mail from us.\n\nIf this was not "
        'you, open the profile menu on one of your devices and choose "Sign out on every '
        'other device": it can remove the address and the passkeys added since as well.',
        "greeting": "Hello {name},",
        "table_of": "{host}'s table",
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
        "digest.subject.one": "{count} game is waiting for you",
        "digest.subject.other": "{count} games are waiting for you",
        "digest.body": "it is your turn at these tables:",
        "time_short.subject": "Your time runs out in 1 hour: {table}",
        "time_short.body": "your time at {table} runs out in less than an hour. If it runs out, "
        "a bot plays your seat until you take it back.\n\n{link}",
        "game_over.subject": "The game is over: {table}",
        "game_over.body": "the game at {table} is over: you finished {place} of {of}.\n\n{link}",
        "rematch.subject": "{inviter} asks for a rematch",
        "rematch.body": "{inviter} asks to play {table} again with the same people. Accept or "
        "decline in My games:\n\n{link}",
        "invite.subject": "{inviter} invites you to a table",
        "invite.body": "{inviter} invites you to {table}. Accept or decline in My games:\n\n{link}",
        "footer": "You get this e-mail because you asked Crown of Emara for game notifications. "
        "Stop them with one click: {link}",
    },
    "de": {
        "address_changed.subject": "Deine E-Mail-Adresse bei Crown of Emara wurde geändert",
        "address_changed.body": "die E-Mail-Adresse deines Profils bei Crown of Emara wurde "
        "am {when} (UTC) geändert: an diese Adresse schreiben wir nicht mehr.\n\nWarst du das "
        'nicht, öffne auf einem deiner Geräte das Profilmenü und wähle "Auf allen anderen '
        'Geräten abmelden": das kann auch die seither hinzugefügte Adresse und Passkeys '
        "entfernen.",
        "greeting": "Hallo {name},",
        "table_of": "Tisch von {host}",
        "confirm.subject": "Bestätige deine E-Mail-Adresse für Crown of Emara",
        "confirm.body": "bitte bestätige, dass Crown of Emara dir an diese Adresse schreiben "
        "darf. Öffne diesen Link innerhalb von {minutes} Minuten:\n\n{link}\n\nWenn du das nicht "
        "angefordert hast, ignoriere diese Nachricht: es kommt nichts weiter.",
        "signin.subject": "Bei Crown of Emara anmelden",
        "signin.body": "öffne diesen Link innerhalb von {minutes} Minuten auf dem Gerät, auf dem "
        "du spielen willst. Er funktioniert einmal:\n\n{link}\n\nWenn du ihn nicht angefordert "
        "hast, ignoriere diese Nachricht: ohne den Link kann sich niemand anmelden.",
        "your_turn.subject": "Du bist am Zug: {table}",
        "your_turn.body": "du bist am Zug: {table}.\n\n{link}",
        "digest.subject.one": "{count} Spiel wartet auf dich",
        "digest.subject.other": "{count} Spiele warten auf dich",
        "digest.body": "an diesen Tischen bist du am Zug:",
        "time_short.subject": "Deine Zeit läuft in 1 Stunde ab: {table}",
        "time_short.body": "deine Zeit am {table} läuft in weniger als einer Stunde ab. Läuft sie "
        "ab, spielt ein Bot deinen Platz, bis du ihn zurücknimmst.\n\n{link}",
        "game_over.subject": "Das Spiel ist vorbei: {table}",
        "game_over.body": "das Spiel am {table} ist vorbei: du bist auf Platz {place} von "
        "{of}.\n\n{link}",
        "rematch.subject": "{inviter} möchte eine Revanche",
        "rematch.body": "{inviter} möchte {table} mit denselben Leuten noch einmal spielen. Sag zu "
        "oder ab in Meine Spiele:\n\n{link}",
        "invite.subject": "{inviter} lädt dich an einen Tisch ein",
        "invite.body": "{inviter} lädt dich an den {table} ein. Sag zu oder ab in Meine "
        "Spiele:\n\n{link}",
        "footer": "Du bekommst diese E-Mail, weil du bei Crown of Emara Spielnachrichten "
        "bestellt hast. Mit einem Klick abbestellen: {link}",
    },
    "cs": {
        "address_changed.subject": "Vaše e-mailová adresa v Crown of Emara byla změněna",
        "address_changed.body": "e-mailová adresa vašeho profilu v Crown of Emara byla "
        "{when} (UTC) změněna: na tuto adresu už nic posílat nebudeme.\n\nPokud jste to "
        'nebyli vy, otevřete na některém svém zařízení nabídku profilu a zvolte "Odhlásit na '
        'všech ostatních zařízeních": může přitom odebrat i adresu a přístupové klíče '
        "přidané od té doby.",
        "greeting": "Dobrý den, {name},",
        "table_of": "stůl hráče {host}",
        "confirm.subject": "Potvrďte svou e-mailovou adresu pro Crown of Emara",
        "confirm.body": "potvrďte prosím, že vám Crown of Emara smí psát na tuto adresu. "
        "Otevřete tento odkaz do {minutes} minut:\n\n{link}\n\nPokud jste o to nežádali, zprávu "
        "ignorujte: nic dalšího sem nepřijde.",
        "signin.subject": "Přihlášení do Crown of Emara",
        "signin.body": "otevřete tento odkaz do {minutes} minut na zařízení, na kterém chcete "
        "hrát. Funguje jednou:\n\n{link}\n\nPokud jste o něj nežádali, zprávu ignorujte: bez "
        "odkazu se nikdo nepřihlásí.",
        "your_turn.subject": "Jste na tahu: {table}",
        "your_turn.body": "jste na tahu: {table}.\n\n{link}",
        "digest.subject.one": "Čeká na vás {count} hra",
        "digest.subject.few": "Čekají na vás {count} hry",
        "digest.subject.other": "Čeká na vás {count} her",
        "digest.body": "u těchto stolů jste na tahu:",
        "time_short.subject": "Za hodinu vám vyprší čas: {table}",
        "time_short.body": "váš čas ({table}) vyprší za méně než hodinu. Když vyprší, za vaše "
        "místo hraje bot, dokud si ho nevezmete zpět.\n\n{link}",
        "game_over.subject": "Hra skončila: {table}",
        "game_over.body": "hra ({table}) skončila: jste na {place}. místě z {of}.\n\n{link}",
        "rematch.subject": "{inviter} chce odvetu",
        "rematch.body": "{inviter} chce hrát {table} znovu se stejnými lidmi. Přijměte nebo "
        "odmítněte v Mých hrách:\n\n{link}",
        "invite.subject": "{inviter} vás zve ke stolu",
        "invite.body": "{inviter} vás zve: {table}. Přijměte nebo odmítněte v Mých "
        "hrách:\n\n{link}",
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


def table_label(lang: Lang, name: str | None, host: str | None) -> str:
    """A table as a message names it: its name, else whose table it is."""
    return name or say(lang, "table_of", host=host or "?")


def digest_subject(lang: Lang, count: int) -> str:
    key = f"digest.subject.{plural(lang, count)}"
    if key not in CATALOGUES[lang]:
        key = "digest.subject.other"
    return say(lang, key, count=count)
