// WebAuthn in JSON: the server's options carry binary values as base64url; the browser wants
// ArrayBuffers, and its answers go back as base64url again (PublicKeyCredential.toJSON()).

export function passkeysSupported() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

// Why this page cannot make or use passkeys though the browser can, or null. Browsers make them
// for a host name only (never an IP address), and only in a secure context (https, or
// localhost). On a loopback IP (this computer) `local` is the same page on localhost.
export function passkeysBlocked(loc = window.location) {
  const host = loc.hostname;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":")) {
    const loopback = /^127\./.test(host) || host === "[::1]" || host === "::1";
    const port = loc.port ? ":" + loc.port : "";
    return { reason: "ip", host, local: loopback ? `${loc.protocol}//localhost${port}${loc.pathname}${loc.search}` : null };
  }
  if (!window.isSecureContext) return { reason: "insecure", host, local: null };
  return null;
}

// The browser can, and this page may.
export function passkeysUsable() {
  return passkeysSupported() && !passkeysBlocked();
}

// ---------- base64url <-> bytes ----------

export function fromB64url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

export function toB64url(buf) {
  const bytes = new Uint8Array(buf);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function descriptors(list) {
  return (list || []).map((d) => ({ type: d.type, id: fromB64url(d.id), ...(d.transports ? { transports: d.transports } : {}) }));
}

export function creationOptions(o) {
  return {
    rp: o.rp,
    user: { id: fromB64url(o.user.id), name: o.user.name, displayName: o.user.displayName },
    challenge: fromB64url(o.challenge),
    pubKeyCredParams: o.pubKeyCredParams,
    timeout: o.timeout,
    excludeCredentials: descriptors(o.excludeCredentials),
    authenticatorSelection: o.authenticatorSelection,
    attestation: o.attestation,
  };
}

export function requestOptions(o) {
  return {
    challenge: fromB64url(o.challenge),
    timeout: o.timeout,
    rpId: o.rpId,
    allowCredentials: descriptors(o.allowCredentials),
    userVerification: o.userVerification,
  };
}

export function credentialJSON(cred) {
  const r = cred.response;
  const response = { clientDataJSON: toB64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    if (typeof r.getTransports === "function") response.transports = r.getTransports();
  } else {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    if (r.userHandle) response.userHandle = toB64url(r.userHandle);
  }
  return {
    id: cred.id,
    rawId: toB64url(cred.rawId),
    type: cred.type,
    response,
    authenticatorAttachment: cred.authenticatorAttachment || null,
    clientExtensionResults: {},
  };
}

// The person closed the browser's dialog, or no authenticator answered: not an error to show.
export function cancelled(e) {
  return e && (e.name === "NotAllowedError" || e.name === "AbortError");
}
