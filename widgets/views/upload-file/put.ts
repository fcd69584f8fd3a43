// Sending the bytes: one XHR PUT to the presigned/signed URL that `upload-start` handed out, with
// exactly its headers (the view holds no bearer key), reporting progress as it goes.
import { live } from "./state";
import { setSent } from "./steps";
import type { Session, Started } from "./types";

/** True when the upload URL is gone or about to go (5 s of slack). */
export function expired(started: Started): boolean {
  const at = started.expiresAt;
  if (at === undefined || at === null || at === "") return false;
  const ms = typeof at === "number" ? (at < 1e12 ? at * 1000 : at) : Date.parse(at);
  return Number.isFinite(ms) && ms - Date.now() < 5000;
}

/** PUT the bytes with exactly the headers upload-start gave; resolves on a 2xx answer. */
export function put(s: Session, started: Started): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(started.method || "PUT", started.uploadUrl);
    for (const [name, value] of Object.entries(started.headers ?? {})) xhr.setRequestHeader(name, value);
    setSent(s, 0, s.file.size);
    xhr.upload.onprogress = (ev) => {
      if (live(s)) setSent(s, ev.loaded, ev.lengthComputable ? ev.total : s.file.size);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        setSent(s, s.file.size, s.file.size);
        resolve();
      } else {
        const why = storageMessage(xhr.responseText);
        reject(new Error(`The storage server refused the file (HTTP ${xhr.status})${why ? `: ${why}` : "."}`));
      }
    };
    const unreachable = (): void => reject(new Error(
      "The upload could not reach the storage server. Check your connection and try again; if it keeps " +
      "failing, this app may not be allowed to send files from here.",
    ));
    xhr.onerror = unreachable;
    xhr.ontimeout = unreachable;
    xhr.onabort = () => reject(new Error("The upload was interrupted before it finished."));
    xhr.send(s.file);
  });
}

/** The readable part of an S3 XML error or a JSON error body, if any. */
function storageMessage(body: string): string {
  if (!body) return "";
  const xml = /<Message>([^<]*)<\/Message>/.exec(body);
  if (xml) return xml[1];
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    for (const key of ["message", "detail", "error"]) {  // the sentence before the code
      if (typeof parsed[key] === "string") return parsed[key] as string;
    }
  } catch {
    /* not JSON */
  }
  return body.length <= 200 ? body.trim() : "";
}
