// Builds every view under views/<name>/index.html (and the test host) into one self-contained
// HTML file with vite + vite-plugin-singlefile: nothing is fetched at run time.
//   views/<name>      -> ../layers/memory_mcp/ui/<name>.html   (shipped in the Python package)
//   test-host         -> ../tests/widgets/host.html            (used only by the browser tests)
// ../layers/memory_mcp/ui/manifest.json records a hash of the sources so a test can tell when
// the committed files are stale.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, copyFileSync, rmSync } from "node:fs";
import { join, relative, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { viteSingleFile } from "vite-plugin-singlefile";

const here = dirname(fileURLToPath(import.meta.url));
const uiDir = join(here, "..", "layers", "memory_mcp", "ui");
const hostDir = join(here, "..", "tests", "widgets");
const SOURCE_EXT = [".ts", ".html", ".css", ".mjs", ".json"];
const SKIP = (name) => name === "node_modules" || name.startsWith(".build");
const scratch = join(here, `.build-${process.pid}`);  // per process: concurrent builds do not collide

/** The same walk and hash as tests/test_widgets.py::source_hash. */
export function sourceHash() {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      if (SKIP(name)) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (SOURCE_EXT.some((ext) => name.endsWith(ext))) files.push(relative(here, path).split("\\").join("/"));
    }
  };
  walk(here);
  files.sort();
  const outer = createHash("sha256");
  for (const file of files) {
    const inner = createHash("sha256").update(readFileSync(join(here, file))).digest("hex");
    outer.update(`${file}\0${inner}\n`);
  }
  return outer.digest("hex");
}

async function buildOne(root, outFile) {
  const outDir = join(scratch, relative(here, root));
  await build({
    root,
    logLevel: "warn",
    configFile: false,
    plugins: [viteSingleFile()],
    build: { outDir, emptyOutDir: true, minify: true, reportCompressedSize: false },
  });
  mkdirSync(dirname(outFile), { recursive: true });
  copyFileSync(join(outDir, "index.html"), outFile);
  return statSync(outFile).size;
}

const views = readdirSync(join(here, "views")).filter((n) => statSync(join(here, "views", n)).isDirectory()).sort();
mkdirSync(uiDir, { recursive: true });
for (const stale of readdirSync(uiDir).filter((f) => f.endsWith(".html") && !views.includes(f.slice(0, -5)))) {
  rmSync(join(uiDir, stale));  // a view that no longer exists must not keep being served
}
const sizes = {};
for (const name of views) {
  sizes[name] = await buildOne(join(here, "views", name), join(uiDir, `${name}.html`));
}
sizes["test-host"] = await buildOne(join(here, "test-host"), join(hostDir, "host.html"));
rmSync(scratch, { recursive: true, force: true });
writeFileSync(join(uiDir, "manifest.json"),
  JSON.stringify({ sourceHash: sourceHash(), views, bytes: sizes }, null, 2) + "\n");
for (const [name, size] of Object.entries(sizes)) console.log(`${name.padEnd(14)} ${(size / 1024).toFixed(1)} KiB`);
