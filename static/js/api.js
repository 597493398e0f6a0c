// JSON over HTTP. The session is the HttpOnly cookie the server sets: the page never holds a token.
// Errors become ApiError with the server's stable code.
import { t, has } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, detail) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.detail = detail || {};
  }
  // The message the player reads: the catalogue's words for the code, else the server's text.
  get text() {
    if (has("err." + this.code)) return t("err." + this.code);
    return t("err.generic", { message: this.message || this.code });
  }
}

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    throw new ApiError(0, "network", String(e));
  }
  let data = null;
  try {
    data = await res.json();
  } catch {}
  if (!res.ok) {
    const err = (data && data.error) || {};
    let code = err.code || (res.status === 404 ? "not_found" : res.status === 401 ? "unauthorized" : "http_" + res.status);
    let message = err.message || (data && typeof data.detail === "string" ? data.detail : res.statusText);
    if (!err.code && res.status === 422) code = "validation_error";
    throw new ApiError(res.status, code, message, err);
  }
  return data;
}

export const get = (p) => api("GET", p);
export const post = (p, b = {}) => api("POST", p, b);
export const del = (p) => api("DELETE", p);
