/** The dashboard's pages use the portal's escaping template; `Html` is its safe markup. */
export { html, SafeHtml as Html } from "../portal/html.ts";
