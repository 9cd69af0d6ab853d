// End-to-end test of the web playground in a real headless Chromium, driven by playwright-core.
// Starts `pegsol serve` on a free port, plays jumps by clicking, checks an invalid click is
// explained, asks for a hint, solves from there and checks the final board; then draws a
// triangular board. Saves screenshots under e2e/out/.
//
// Environment: PEGSOL_BIN (default ../target/release/pegsol), CHROMIUM (default /usr/bin/chromium).

import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.PEGSOL_BIN || join(here, "..", "target", "release", "pegsol");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
const out = join(here, "out");
mkdirSync(out, { recursive: true });

function fail(message) {
  console.error("e2e FAILED: " + message);
  process.exitCode = 1;
  throw new Error(message);
}
function check(cond, message) { if (!cond) fail(message); else console.log("ok - " + message); }

const server = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--budget", "5"], { stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise((resolve, reject) => {
  let text = "";
  server.stdout.on("data", (d) => {
    text += d;
    const m = text.match(/http:\/\/[0-9.:]+\//);
    if (m) resolve(m[0]);
  });
  server.on("exit", (code) => reject(new Error("server exited with " + code)));
  setTimeout(() => reject(new Error("server did not start")), 10000);
});
console.log("server at " + url);

const browser = await chromium.launch({
  executablePath: browserPath,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  page.setDefaultTimeout(20000);
  await page.goto(url);
  const hole = (l) => page.locator(`circle[data-label="${l}"]`);
  const cls = async (l) => (await hole(l).getAttribute("class")) || "";
  const statusIs = async (text) => page.waitForFunction(
    (t) => document.getElementById("status").textContent.includes(t), text);

  await hole("d4").waitFor();
  check((await page.locator("circle.hole").count()) === 33, "the English board has 33 holes");
  check((await cls("d4")).includes("empty"), "d4 starts empty");
  await statusIs("You can still win");
  check(true, "status line says the start can win");

  // Jump d2 over d3 into d4.
  await hole("d2").click();
  check((await cls("d2")).includes("selected"), "clicking a peg selects it");
  await hole("d4").click();
  check((await cls("d4")).includes("peg") && (await cls("d2")).includes("empty") && (await cls("d3")).includes("empty"),
    "d2-d4 moves the peg and removes d3");

  // An invalid click is explained.
  await hole("c1").click();
  await hole("d3").click();
  const message = await page.locator("#message").textContent();
  check(message.includes("cannot jump"), `an invalid jump is explained: "${message}"`);

  // Jump f3 over e3 into d3.
  await hole("f3").click();
  await hole("d3").click();
  check((await cls("d3")).includes("peg") && (await cls("e3")).includes("empty"), "f3-d3 played");
  await statusIs("You can still win");
  check((await page.locator("#moves").textContent()).trim() === "d2-d4 f3-d3", "move list in notation");

  // Undo and redo.
  await page.click("#undo");
  check((await cls("f3")).includes("peg") && (await cls("d3")).includes("empty"), "undo restores f3 and e3");
  await page.click("#redo");
  check((await cls("d3")).includes("peg"), "redo plays f3-d3 again");

  // Hint.
  await page.click("#hintBtn");
  await page.waitForFunction(() => document.getElementById("hint").textContent.startsWith("Hint: "));
  const hint = (await page.locator("#hint").textContent()).slice(6);
  const [hFrom, hTo] = hint.split("-");
  check((await cls(hFrom)).includes("peg") && (await cls(hTo)).includes("empty"), `hint ${hint} is a legal jump`);
  check((await page.locator("circle.hinted").count()) === 2, "the hinted jump is highlighted");

  // Solve from here, animated, and check the final board.
  await page.click("#solveBtn");
  await statusIs("Solved: this is the finish.");
  const pegs = await page.locator("circle.peg").evaluateAll((cs) => cs.map((c) => c.dataset.label));
  check(pegs.length === 1 && pegs[0] === "d4", `one peg left, on d4 (got ${pegs.join(",")})`);
  check((await page.locator("#jumpCount").textContent()) === "31", "31 jumps in the move list");
  await page.screenshot({ path: join(out, "playground.png"), fullPage: true });
  check(true, "screenshot saved to e2e/out/playground.png");

  // A triangular board is drawn as a triangle.
  await page.selectOption("#boardName", "triangle5");
  await page.waitForFunction(() => document.querySelectorAll("circle.hole").length === 15);
  const cx = async (l) => Number(await hole(l).getAttribute("cx"));
  const [apex, left, right] = [await cx("a1"), await cx("a5"), await cx("e5")];
  check(Math.abs(apex - (left + right) / 2) < 1e-6, "triangle5: the apex is centred over the base");
  await statusIs("You can still win");

  // Set up a problem by clicking: the finish a1 off, c5 on; then c3 emptied at the start.
  await page.selectOption("#mode", "finish");
  await hole("a1").click();
  check((await page.locator("#finishText").textContent()).includes("(none yet)"), "finish holes toggle off");
  await hole("c5").click();
  check((await page.locator("#finishText").textContent()) === "finish: c5", "finish chosen by clicking");
  await statusIs("You can still win");
  await page.selectOption("#mode", "start");
  await hole("c3").click();
  check((await cls("c3")).includes("empty"), "a start peg removed by clicking");
  await statusIs("can no longer be reached");
  check(true, "a1 and c3 empty, finish c5: the solver says it cannot be done");
  await page.click("#finishAny");
  await statusIs("You can still win");
  check(true, "with one peg anywhere it can");
  await page.selectOption("#mode", "play");
  await page.screenshot({ path: join(out, "triangle.png"), fullPage: true });
  check(true, "triangle screenshot saved");
} finally {
  await browser.close();
  server.kill();
}
console.log("e2e passed");
