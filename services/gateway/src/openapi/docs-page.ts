import { randomBytes } from "node:crypto";

/**
 * What `/docs` adds to swagger-ui: the Authorize dialog opens at its top. swagger-ui gives every
 * api-key box `autofocus`, so the browser focuses the last one and scrolls the dialog past the
 * merchant's `api-key` box; this moves focus back to the first box once the dialog appears.
 * Served as a file of its own from /docs (the page's CSP allows scripts from 'self' only).
 */
export const AUTHORIZE_DIALOG_SCRIPT = `"use strict";
new MutationObserver(function (changes) {
  for (var i = 0; i < changes.length; i++) {
    for (var j = 0; j < changes[i].addedNodes.length; j++) {
      var node = changes[i].addedNodes[j];
      var dialog = node.nodeType === 1 && (node.matches(".dialog-ux") ? node : node.querySelector(".dialog-ux"));
      if (!dialog) continue;
      var content = dialog.querySelector(".modal-ux-content");
      var first = dialog.querySelector("input");
      if (first) first.focus({ preventScroll: true });
      if (content) content.scrollTop = 0;
    }
  }
}).observe(document.body, { childList: true, subtree: true });
`;

interface DocumentWithPaths {
  paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { example?: unknown }> } }>>;
}

/**
 * The document as `/docs` renders it: Create Checkout's example gets a `merchant_checkout_id`
 * of its own on every render, so Try-it after the walk-through (or twice) does not meet 409
 * `duplicate_merchant_checkout_id`. `/openapi.json` keeps the stable example.
 */
export function freshDocsExamples<T>(document: T): T {
  const media = (document as DocumentWithPaths).paths?.["/api/merchants/checkout"]?.post?.requestBody?.content?.["application/json"];
  if (media?.example && typeof media.example === "object") {
    media.example = { ...media.example, merchant_checkout_id: `order-${randomBytes(4).toString("hex")}` };
  }
  return document;
}
