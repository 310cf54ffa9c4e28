// The two calls of node:fs the parity and page-facts tests make (the package has no @types/node): it reads the
// snapshots and goldens Python writes, outside js/ where vite's module loader may not go.
declare module "node:fs" {
  export function readFileSync(path: string, encoding: "utf8"): string;
  export function readdirSync(path: string, options: { recursive: true; encoding: "utf8" }): string[];
}
