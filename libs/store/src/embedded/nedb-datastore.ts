import nedbModule from "@seald-io/nedb";

/**
 * nedb's Datastore class. The package is CommonJS and its `module.exports` is the class, but
 * its typings declare an ES default export, so under NodeNext TypeScript types the default
 * import as the whole module; this re-export gives the class its real type.
 */
export const Datastore = nedbModule as unknown as typeof nedbModule.default;
export type Datastore = InstanceType<typeof Datastore>;
