type Child = Node | string | null | undefined | false;

/** A small element builder: `h("p", { class: "muted" }, "text")`. Text is never parsed as HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | boolean> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false) continue;
    el.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

/**
 * Shows one step: replaces the page's content and moves focus to its heading, so a screen
 * reader announces the new step and keyboard users start from the top of it.
 */
export function show(title: string, ...content: Child[]): void {
  const main = document.getElementById("main")!;
  const heading = h("h1", { tabindex: "-1" }, title);
  document.title = `${title} · Pay by bank`;
  main.replaceChildren(heading, ...content.filter((c): c is Node | string => !!c));
  heading.focus();
}

/** An error line announced by screen readers as soon as it is filled. */
export function errorLine(id: string): HTMLParagraphElement {
  return h("p", { id, class: "error", role: "alert" });
}

/** Marks a field wrong (or right again) and says why in its error line. */
export function setFieldError(input: HTMLInputElement, line: HTMLElement, message: string): void {
  line.textContent = message;
  if (message) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
  if (message) input.focus();
}
