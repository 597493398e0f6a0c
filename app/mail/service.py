"""E-mail addresses of profiles: add (a confirmation link goes out), confirm, change what is
wanted, remove, unsubscribe in one click; and sign-in links, the fourth way onto a device.
Adding, changing and removing an address need a recent proof on the asking device (checked by the
endpoints); a confirmed address or change is told to the profile's other devices (a security
notice), and a change to the old address too (a mail).

Links are single-use and short-lived (only their hash is stored); every mail a person asks for
is rate-limited per profile, client address and mailbox by the endpoints. An address is shown
only to its own profile. Nothing is sent, and nothing can be added, without an SMTP server.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from anyio import to_thread
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.clock import Clock
from app.db.session import Database
from app.errors import AppError, NotFound
from app.mail import repository as repo
from app.mail.address import normalise
from app.mail.compose import Outgoing, letter
from app.mail.links import Links
from app.mail.postman import Postman
from app.mail.schemas import EmailOut
from app.mail.sessions import open_session
from app.mail.texts import Lang, lang_of, say
from app.mail.tokens import UnsubscribeSigner, new_token, same_address, token_hash
from app.mail.wording import at_time
from app.profiles import notices
from app.profiles.service import Issued, ProfileService
from app.profiles.switch import check_switch

T = TypeVar("T")


class MailUnavailable(AppError):
    status = 409
    code = "email_unavailable"


class BadEmailLink(AppError):
    """Unknown, used or expired: one answer for all, so a guess learns nothing."""

    status = 404
    code = "bad_email_link"


class AddressTaken(AppError):
    status = 409
    code = "email_taken"


class MailBusy(AppError):
    status = 503
    code = "email_busy"


@dataclass(frozen=True)
class MailStatus:
    enabled: bool
    address: str | None
    pending: str | None
    notify: bool
    lang: str


class MailService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        postman: Postman,
        links: Links,
        signer: UnsubscribeSigner,
        profiles: ProfileService,
        confirm_seconds: float,
        signin_seconds: float,
    ) -> None:
        self.db = db
        self.clock = clock
        self.postman = postman
        self.links = links
        self.signer = signer
        self.profiles = profiles
        self.confirm_seconds = confirm_seconds
        self.signin_seconds = signin_seconds

    @property
    def enabled(self) -> bool:
        return self.postman.enabled

    async def _run(self, work: Callable[[Session], T]) -> T:
        def in_session() -> T:
            with self.db.session() as s:
                return work(s)

        return await to_thread.run_sync(in_session)

    def _need_mail(self) -> None:
        if not self.enabled:
            raise MailUnavailable("this server sends no e-mail (no SMTP server is configured)")

    def _send(self, message: Outgoing) -> None:
        if not self.postman.post(message):
            raise MailBusy("no e-mail can be sent right now, try again later")

    # ------------------------------------------------------------------ my address
    async def status(self, profile_id: str) -> MailStatus:
        now = self.clock.now()

        def work(s: Session) -> MailStatus:
            row = repo.address_of(s, profile_id)
            pending = repo.pending_confirmation(s, profile_id, now)
            if row is None:
                return MailStatus(self.enabled, None, pending, False, "en")
            return MailStatus(self.enabled, row.address, pending, row.notify, row.lang)

        return await self._run(work)

    async def add(
        self, profile_id: str, raw: str, lang: str, session_id: str | None = None
    ) -> MailStatus:
        """A confirmation link to ``raw`` (checked first); the address counts once confirmed.
        ``session_id``: the device that asked (its change is no notice to itself)."""
        address = normalise(raw)
        self._need_mail()
        token = new_token()
        until = self.clock.now() + self.confirm_seconds
        lang = lang_of(lang)

        def work(s: Session) -> str | None:
            repo.forget_tokens(s, profile_id, "confirm")  # only the latest link works
            repo.add_token(
                s, token_hash(token), profile_id, "confirm", address, lang, until, session_id
            )
            return repo.profile_name(s, profile_id)

        name = await self._run(work)
        if name is None:
            raise NotFound("no such profile")
        minutes = round(self.confirm_seconds / 60)
        body = say(lang, "confirm.body", minutes=minutes, link=self.links.confirm(token))
        self._send(
            Outgoing(
                address, "confirm", say(lang, "confirm.subject"), letter(lang, name, body, None)
            )
        )
        return await self.status(profile_id)

    async def confirm(self, token: str) -> None:
        """Spend a confirmation link: the address becomes its profile's. The profile's other
        devices are told (a notice); a change is mailed to the old address too."""
        digest, now, at = token_hash(token), self.clock.now(), self.clock.utcnow()

        def work(s: Session) -> tuple[str, str, Lang] | None:
            row = repo.spend_token(s, digest, "confirm", now)
            if row is None:
                raise BadEmailLink("this link is unknown, used or expired")
            owner = repo.owner_of(s, row.address)
            if owner is not None and owner.profile_id != row.profile_id:
                raise AddressTaken("this address belongs to another profile")
            before = repo.address_of(s, row.profile_id)
            old = None if before is None else (before.address, lang_of(before.lang))
            try:
                repo.set_address(s, row.profile_id, row.address, row.lang, at)
            except IntegrityError as exc:  # confirmed for another profile at the same moment
                raise AddressTaken("this address belongs to another profile") from exc
            if old is not None and old[0] == row.address:
                return None  # the same address confirmed again: nothing changed
            kind = notices.NoticeKind.ADDRESS_ADDED
            if old is not None:
                kind = notices.NoticeKind.ADDRESS_CHANGED
            kept = self.profiles.notices_kept
            notices.record(s, row.profile_id, row.session_id, kind, row.address, at, kept)
            name = repo.profile_name(s, row.profile_id) or "?"
            return None if old is None else (old[0], name, old[1])

        told = await self._run(work)
        if told is not None:
            self._tell_old_address(*told, when=at)

    def _tell_old_address(self, address: str, name: str, lang: Lang, when: datetime) -> None:
        """The address a profile moved away from is told (no new address named: the old
        mailbox may no longer be the person's)."""
        body = say(lang, "address_changed.body", when=at_time(lang, when))
        self.postman.post(
            Outgoing(
                address,
                "address_changed",
                say(lang, "address_changed.subject"),
                letter(lang, name, body, None),
            )
        )

    async def update(self, profile_id: str, notify: bool | None, lang: str | None) -> MailStatus:
        def work(s: Session) -> None:
            row = repo.address_of(s, profile_id)
            if row is None:
                raise NotFound("no confirmed e-mail address")
            if notify is not None:
                row.notify = notify
            if lang is not None:
                row.lang = lang_of(lang)

        await self._run(work)
        return await self.status(profile_id)

    async def remove(self, profile_id: str) -> MailStatus:
        def work(s: Session) -> None:
            repo.forget_tokens(s, profile_id, "confirm")
            repo.forget_tokens(s, profile_id, "signin")
            repo.remove_address(s, profile_id)

        await self._run(work)
        return await self.status(profile_id)

    # ------------------------------------------------------------------ unsubscribe
    def unsubscribe_token(self, profile_id: str, address: str) -> str:
        return self.signer.issue(profile_id, address)

    async def unsubscribe(self, token: str) -> None:
        """Stop game notifications to the address the token was made for (idempotent)."""
        read = self.signer.read(token)
        if read is None:
            raise BadEmailLink("this link is unknown, used or expired")
        profile_id, digest = read

        def work(s: Session) -> None:
            row = repo.address_of(s, profile_id)
            if row is None or not same_address(digest, row.address):
                raise BadEmailLink("this link is unknown, used or expired")
            row.notify = False

        await self._run(work)

    # ------------------------------------------------------------------ sign-in links
    async def owner_id(self, raw: str) -> str | None:
        """The profile that confirmed the address, if one did (never shown to the caller)."""
        address = normalise(raw)

        def work(s: Session) -> str | None:
            owner = repo.owner_of(s, address)
            return None if owner is None else owner.profile_id

        return await self._run(work)

    async def send_sign_in(self, raw: str, lang: str) -> None:
        """A sign-in link to the address, if a profile confirmed it; the same answer either
        way (nobody learns whose address it is)."""
        address = normalise(raw)
        self._need_mail()
        token = new_token()
        until = self.clock.now() + self.signin_seconds

        def work(s: Session) -> tuple[str, str, str] | None:
            owner = repo.owner_of(s, address)
            if owner is None:
                return None
            name = repo.profile_name(s, owner.profile_id) or "?"
            repo.forget_tokens(s, owner.profile_id, "signin")
            repo.add_token(
                s, token_hash(token), owner.profile_id, "signin", address, owner.lang, until
            )
            return owner.profile_id, name, owner.lang

        found = await self._run(work)
        if found is None:
            return
        _, name, owner_lang = found
        mail_lang = lang_of(owner_lang or lang)
        minutes = round(self.signin_seconds / 60)
        body = say(mail_lang, "signin.body", minutes=minutes, link=self.links.sign_in(token))
        self._send(
            Outgoing(
                address,
                "signin",
                say(mail_lang, "signin.subject"),
                letter(mail_lang, name, body, None),
            )
        )

    async def sign_in(self, token: str, current: str | None = None, switch: bool = False) -> Issued:
        """Spend a sign-in link: a new session on this device (the others keep theirs). Where
        ``current``, another profile, is signed in, only when asked to ``switch``
        (app/profiles/switch.py); else the link stays unspent."""
        digest, now = token_hash(token), self.clock.now()

        def work(s: Session) -> str:
            row = repo.spend_token(s, digest, "signin", now)
            if row is None:
                raise BadEmailLink("this link is unknown, used or expired")
            owner = repo.owner_of(s, row.address)
            if owner is None or owner.profile_id != row.profile_id:
                raise BadEmailLink("this link is unknown, used or expired")
            check_switch(s, current, row.profile_id, switch)
            return row.profile_id

        profile_id = await self._run(work)
        return await open_session(self.profiles, profile_id)

    def describe(self, st: MailStatus) -> EmailOut:
        return EmailOut(
            enabled=st.enabled,
            address=st.address,
            pending=st.pending,
            notify=st.notify,
            lang=st.lang,
        )
