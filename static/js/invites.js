// Invite codes of the tables this browser has seen (they open a table to a newcomer; they are not
// the player's credentials, which live only in the HttpOnly session cookie).

export function rememberInvite(id, code) {
  if (!code) return;
  try {
    const all = JSON.parse(localStorage.getItem("emara.invites") || "{}");
    all[id] = code;
    localStorage.setItem("emara.invites", JSON.stringify(all));
  } catch {}
}

export function inviteFor(id) {
  try {
    return JSON.parse(localStorage.getItem("emara.invites") || "{}")[id] || null;
  } catch {
    return null;
  }
}

export function inviteUrl(id, code) {
  return `${location.origin}/t/${encodeURIComponent(id)}?invite=${encodeURIComponent(code)}`;
}
