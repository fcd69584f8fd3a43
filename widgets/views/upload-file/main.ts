// upload-file: pick one local file, check it against the server's types and size limit, choose a
// writable space, PUT the bytes to the presigned/signed URL that `upload-start` hands out (the
// view holds no bearer key), then follow the document through queued → extracting → embedding →
// done (or failed) and show what came out of it.
//   check.ts: wording and the file check · form.ts: the form · session.ts: one upload ·
//   put.ts: the XHR PUT · follow.ts: status polling and the outcome · steps.ts: progress drawing
import { connect, data, el, errorPanel, render, start, text, type ToolResult } from "../../shared/app";
import { showForm, showNowhere } from "./form";
import { upload } from "./session";
import { state } from "./state";
import type { Offer } from "./types";
import "./style.css";

function onResult(result: ToolResult): void {
  if (result.isError) {
    render(errorPanel("Uploading is not available right now.", text(result) || "The server gave no reason."));
    return;
  }
  const o = data<Offer>(result);
  if (!o || !Array.isArray(o.types) || !Array.isArray(o.writableSpaces)) {
    render(errorPanel("Uploading is not available right now.", text(result) || "The server sent no upload details."));
    return;
  }
  state.offer = o;
  if (!o.canUpload || o.writableSpaces.length === 0) showNowhere(o.message);
  else showForm(o, upload);
}

start(async () => {
  render(el("p", { class: "muted" }, "Loading…"));
  const waiting = setTimeout(() => {
    if (!state.offer) render(el("p", { class: "muted" }, "Loading… still waiting for Memory-MCP's answer."));
  }, 15_000);
  state.app = await connect("upload-file", {
    onResult: (result) => {
      clearTimeout(waiting);
      onResult(result);
    },
    onCancelled: (reason) => {
      clearTimeout(waiting);
      if (!state.offer) render(errorPanel("The upload was cancelled.", reason || "The assistant stopped before the upload form was ready."));
    },
  });
});
