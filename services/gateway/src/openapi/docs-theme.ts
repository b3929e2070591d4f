/**
 * `/docs`' style sheet after swagger-ui's own: the colours swagger-ui draws below WCAG AA's
 * 4.5:1 (axe's color-contrast), darkened to reach it. Method badges white on a darker shade of
 * swagger-ui's method colour (5.2:1 or more); the green Authorize and red Cancel text, the blue
 * Execute and links, the grey version badge, "(query)" labels, the expand buttons of schemas, the
 * download button, and the numbers of highlighted JSON on its dark boxes. Served from /docs
 * (its CSP allows styles from 'self').
 */
export const DOCS_THEME_CSS = `
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1b7a4b; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1f63b5; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c0262d; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0b7a68; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #a05300; }
.swagger-ui .opblock.opblock-head .opblock-summary-method { background: #6b3fa0; }
.swagger-ui .opblock.opblock-options .opblock-summary-method { background: #1f63b5; }
.swagger-ui .info .title small { background: #555d6b; }
.swagger-ui .info .title small.version-stamp { background: #4b6f00; }
.swagger-ui .info a, .swagger-ui .info a:hover { color: #1f63b5; }
.swagger-ui .btn.authorize { border-color: #1b7a4b; color: #1b7a4b; }
.swagger-ui .btn.authorize svg { fill: #1b7a4b; }
.swagger-ui .btn.cancel { border-color: #c0262d; color: #c0262d; }
.swagger-ui .btn.execute { background-color: #1f63b5; border-color: #1f63b5; }
.swagger-ui .download-contents { background: #4d5463; }
.swagger-ui .parameter__in { color: #555555; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #4a4a4a; }
.swagger-ui .microlight span[style*="211, 99, 99"] { color: #ff8a8a !important; }
`;
