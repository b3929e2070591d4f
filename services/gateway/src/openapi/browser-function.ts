/**
 * A function for Swagger UI's page, built from its source text. `@fastify/swagger-ui` writes the
 * functions of its `uiConfig` into the page's initializer script by their text; written as a
 * string, the function cannot pick up a bundler's renamed helpers or a closure the page lacks.
 * It is never called in Node.
 */
export function browserFunction<T>(parameter: string, body: string): T {
  return new Function(parameter, body) as T;
}
