"""The e-mail feature as the application builds it from the settings: the SMTP sender, the
service of addresses and links, and the notifier of games (a background subscriber of the hub)."""

from __future__ import annotations

from dataclasses import dataclass

from app.clock import Clock
from app.config import Settings
from app.db.session import Database
from app.mail.links import Links
from app.mail.notifier import MailNotifier
from app.mail.postman import Postman, SmtpConfig
from app.mail.service import MailService
from app.mail.tokens import UnsubscribeSigner
from app.profiles.service import ProfileService
from app.realtime.hub import Hub


@dataclass(frozen=True)
class MailParts:
    postman: Postman
    service: MailService
    notifier: MailNotifier

    @classmethod
    def build(
        cls, settings: Settings, db: Database, hub: Hub, clock: Clock, profiles: ProfileService
    ) -> MailParts:
        smtp = SmtpConfig(
            settings.smtp_host,
            settings.smtp_port,
            settings.smtp_security,
            settings.smtp_user,
            settings.smtp_password,
            settings.smtp_from,
            settings.smtp_timeout_seconds,
        )
        postman = Postman(
            smtp,
            clock,
            settings.mail_enabled,
            settings.email_queue_size,
            settings.email_attempts,
            settings.email_retry_seconds,
            settings.email_senders,
            settings.email_senders_per_domain,
            settings.email_deadline_seconds,
        )
        links = Links(settings.public_url)
        signer = UnsubscribeSigner(settings.effective_secret_key, settings.previous_secret_keys)
        service = MailService(
            db,
            clock,
            postman,
            links,
            signer,
            profiles,
            settings.email_confirm_minutes * 60,
            settings.email_signin_minutes * 60,
        )
        notifier = MailNotifier(
            db,
            hub,
            clock,
            postman,
            links,
            signer,
            settings.email_gather_seconds,
            settings.email_turn_window_seconds,
            settings.email_reminder_seconds,
            settings.email_sweep_seconds,
        )
        return cls(postman, service, notifier)

    def start(self) -> None:
        self.postman.start()
        self.notifier.start()

    async def stop(self) -> None:
        await self.notifier.stop()
        await self.postman.stop()
