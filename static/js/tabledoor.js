// The table a signed-out visitor is about to enter, known before a name is asked for: its name,
// host and free seats, and what a newcomer can do there (GET /api/tables/{id}/preview, with the
// invite code; no secrets of anyone seated). Used by the "who are you?" panel (signin.js).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { get, ApiError } from "./api.js";

// {preview} when the table could be read; {missing: true} when the code (or its absence) opens
// nothing; {error} when the read itself failed (the panel still offers every way in).
export async function readDoor(tableId, invite) {
  const q = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  try {
    return { preview: await get(`/api/tables/${encodeURIComponent(tableId)}/preview${q}`) };
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return { missing: true };
    return { error: e };
  }
}

// Two names a person reads as one (the server's rule, app/tables/preview.py `same_name`).
export function sameName(a, b) {
  const norm = (s) => (s || "").split(/\s+/).filter(Boolean).join(" ").toLocaleLowerCase();
  return !!a && !!b && norm(a) === norm(b);
}

// The seat held by a person called `name`, or null.
export function seatOfName(preview, name) {
  const seat = preview ? preview.seats.find((s) => s.name && sameName(s.name, name)) : null;
  return seat ? seat.seat : null;
}

// The box above the ways in: which table, who hosts it, and its state in words.
export function doorBox(door, invite) {
  if (door.missing) {
    return h("div.whoami-table", { "data-testid": "whoami-table", "data-door": "missing" },
      h("p.whoami-door", { "data-testid": "whoami-door" }, invite ? t("err.bad_invite") : t("whoami.door.private")));
  }
  if (!door.preview) return null;
  const p = door.preview;
  const title = p.name ? t("whoami.door.named", { name: p.name }) : t("whoami.door.unnamed");
  const state = {
    open: t("whoami.door.open", { count: p.free_seats, seats: p.seat_count }),
    full: t("whoami.door.full"),
    running: t("whoami.door.running"),
    finished: t("whoami.door.finished"),
    closed: t("whoami.door.closed"),
  }[p.door];
  const names = p.seats.filter((s) => s.name).map((s) => s.name);
  return h("div.whoami-table", { "data-testid": "whoami-table", "data-door": p.door },
    h("h2", title),
    p.host_name ? h("p.muted", t("whoami.door.host", { name: p.host_name })) : null,
    names.length ? h("p.muted", { "data-testid": "whoami-players" }, t("whoami.door.players", { names: names.join(", ") })) : null,
    h("p.whoami-door", { "data-testid": "whoami-door", role: p.door === "open" ? null : "status" }, state),
    p.door === "open" || p.door === "closed" ? null
      : h("p", { "data-testid": "whoami-door-can" }, p.spectators ? t("whoami.door.can_watch") : t("whoami.door.can_not_watch")));
}
