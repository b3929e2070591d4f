import type { FastifySwaggerUiConfigOptions } from "@fastify/swagger-ui";
import { browserFunction } from "./browser-function.ts";
import { DOCS_REQUEST_INTERCEPTOR } from "./docs-try-it.ts";

type SwaggerUiPlugin = NonNullable<FastifySwaggerUiConfigOptions["plugins"]>[number];

/**
 * What `/docs` adds to swagger-ui's page, served as a file of its own from /docs (the page's CSP
 * allows scripts from 'self' only). Swagger UI leaves some controls without a name (axe's
 * button-name, select-name, label) and some scrolling code boxes out of the tab order
 * (scrollable-region-focusable); this names them as they appear: the icon-only copy and close
 * buttons, the request body box, the example menus (by the answer's status), a parameter's menu
 * (by the parameter). The Authorize dialog's buttons keep their visible text as their name (its
 * `aria-label` "Apply credentials" hid "Authorize": label-content-name-mismatch). And the dialog
 * opens at its top: swagger-ui gives every api-key box `autofocus`, so the browser focuses the
 * last one and scrolls past the merchant's `api-key` box; focus goes back to the first box.
 * Only added nodes are watched (not attributes), so what this sets never wakes it again.
 */
export const DOCS_PAGE_SCRIPT = `"use strict";
(function () {
  function name(root, selector, text) {
    var found = root.querySelectorAll(selector);
    for (var i = 0; i < found.length; i++) {
      if (!found[i].hasAttribute("aria-label")) found[i].setAttribute("aria-label", typeof text === "function" ? text(found[i]) : text);
    }
  }
  function rowOf(el, attribute) {
    var row = el.closest("tr[" + attribute + "]");
    return row ? row.getAttribute(attribute) : "";
  }
  function mend(root) {
    name(root, ".copy-to-clipboard > button", "Copy to clipboard");
    name(root, "button.close-modal", "Close");
    name(root, "textarea.body-param__text", "Request body");
    name(root, "select.examples-select-element", function (el) {
      var code = rowOf(el, "data-code");
      return code ? "Example of the " + code + " answer" : "Example";
    });
    name(root, ".parameters-col_description select", function (el) { return rowOf(el, "data-param-name") || "Value"; });
    var boxes = root.querySelectorAll("pre.curl, .highlight-code > pre");
    for (var i = 0; i < boxes.length; i++) if (!boxes[i].hasAttribute("tabindex")) boxes[i].setAttribute("tabindex", "0");
    var buttons = root.querySelectorAll(".auth-btn-wrapper button[aria-label]");
    for (var j = 0; j < buttons.length; j++) {
      var text = buttons[j].textContent.trim().toLowerCase();
      if (text && buttons[j].getAttribute("aria-label").toLowerCase().indexOf(text) < 0) buttons[j].removeAttribute("aria-label");
    }
  }
  function openDialog(node) {
    var dialog = node.matches(".dialog-ux") ? node : node.querySelector(".dialog-ux");
    if (!dialog) return;
    var content = dialog.querySelector(".modal-ux-content");
    var first = dialog.querySelector("input");
    if (first) first.focus({ preventScroll: true });
    if (content) content.scrollTop = 0;
  }
  mend(document);
  new MutationObserver(function (changes) {
    for (var i = 0; i < changes.length; i++) {
      for (var j = 0; j < changes[i].addedNodes.length; j++) {
        var node = changes[i].addedNodes[j];
        if (node.nodeType !== 1) continue;
        mend(node.parentElement || node);
        openDialog(node);
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
})();
`;

/**
 * Swagger UI's plugins in `/docs` (browser functions: browser-function.ts). DownloadUrl loads the document (the default list, which
 * `plugins` replaces). The second renders an operation's path as text: Swagger UI's DeepLink is
 * an `<a href>` inside the operation's toggle button, a link nested in a button (axe's
 * nested-interactive) that a click never follows; the address still follows the open operation.
 */
const DOCS_PLUGINS = [
  browserFunction<SwaggerUiPlugin>("system", "return SwaggerUIBundle.plugins.DownloadUrl(system);"),
  browserFunction<SwaggerUiPlugin>("system", `return { components: { DeepLink: function (props) { return system.React.createElement("span", null, props.text); } } };`),
];

/**
 * Swagger UI's configuration in `/docs`. `BaseLayout`: no top bar, whose logo image, unlabelled
 * address box and icon-only theme button fail axe (and the box only reloads this same document).
 * The online validator badge is off (`validatorUrl: null`): it would send the document's address
 * to validator.swagger.io.
 */
export const DOCS_UI_CONFIG: FastifySwaggerUiConfigOptions = {
  layout: "BaseLayout",
  validatorUrl: null,
  plugins: DOCS_PLUGINS,
  requestInterceptor: DOCS_REQUEST_INTERCEPTOR,
};
