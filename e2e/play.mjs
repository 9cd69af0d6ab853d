// End-to-end test of the web playground in a real headless Chromium, driven by playwright-core.
// Starts `pegsol serve` on a free port and plays as a person would: the live colour of every
// jump checked against the server's solver, selection, keyboard play, hints, undo, the share
// URL, stepping through a solution, a stuck game, every menu board's default game, "show me
// why", setting up a problem by clicking, the board editor, and the phone layout. Saves
// screenshots (desktop and phone, light and dark) under e2e/out/.
//
// Environment: PEGSOL_BIN (default ../target/release/pegsol), CHROMIUM (default /usr/bin/chromium).

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
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
  page.setDefaultTimeout(30000);
  // Nothing the page loads by itself fails (the icon is inline: no favicon.ico 404).
  const failedLoads = [];
  page.on("response", (r) => { if (r.status() >= 400) failedLoads.push(`${r.status()} ${r.url()}`); });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForTimeout(500);
  check(failedLoads.length === 0,
    `the page loads with no failed request (no favicon.ico 404): ${failedLoads.join(", ") || "none failed"}`);
  const hole = (l) => page.locator(`circle.hole[data-label="${l}"]`);
  const cls = async (l) => (await hole(l).getAttribute("class")) || "";
  const statusIs = async (text) => page.waitForFunction(
    (t) => document.getElementById("status").textContent.includes(t), text);
  const api = (path, body) => page.evaluate(async ([p, b]) => {
    const r = await fetch(p, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(b) });
    return r.json();
  }, [path, body]);
  const pegsOnBoard = () => page.locator("circle.hole.peg").evaluateAll((cs) => cs.map((c) => c.dataset.label).sort());
  const emptyNow = () => page.locator("circle.hole.empty").evaluateAll((cs) => cs.map((c) => c.dataset.label));

  // Every coloured jump of the position shown, checked by the server's own solver.
  async function checkColours(where) {
    await page.waitForFunction(() => document.querySelectorAll("line.move").length > 0 &&
      !document.getElementById("status").textContent.startsWith("looking"));
    const lines = await page.locator("line.move").evaluateAll((ls) => ls.map((l) => [l.dataset.jump, l.dataset.fate]));
    const empty = await emptyNow();
    const finish = await page.evaluate(() => request.finish);
    let checked = 0;
    for (const [jump, fate] of lines) {
      const [from, to] = jump.split("-");
      const geo = await page.evaluate(() => geo.jumps);
      const over = geo.find((j) => j[0] === from && j[2] === to)[1];
      const after = empty.filter((l) => l !== to).concat([from, over]);
      const v = await api("/api/solve", { board: "english", empty: after, finish, timeout: 10 });
      const want = v.status === "solved" ? "wins" : v.status === "impossible" ? "loses" : "unknown";
      if (fate !== "unknown" && fate !== want) fail(`${where}: ${jump} coloured ${fate}, the solver says ${v.status}`);
      checked++;
    }
    check(checked === lines.length && checked > 0, `${where}: all ${checked} coloured jumps agree with the solver`);
  }

  await hole("d4").waitFor();
  check((await page.locator("circle.hole").count()) === 33, "the English board has 33 holes");
  check((await cls("d4")).includes("empty"), "d4 starts empty");
  await statusIs("You can still win");
  check(true, "status line says the start can win");
  // The odds of random play, from the menu game's winning set, match the CLI's, which builds
  // the winning set of the position itself. The server builds its winning sets after it
  // starts: wait for English's, then have the page ask again (a jump and its undo).
  for (let i = 0; i < 120; i++) {
    const v = await api("/api/analyse", { board: "english", empty: ["d4"], jumps: [], timeout: 2 });
    if (v.exact) break;
    await page.waitForTimeout(500);
  }
  await hole("d2").click();
  await hole("d4").click();
  await page.click("#undo");
  await statusIs("You can still win");
  const hinted = JSON.parse(spawnSync(bin, ["hint", "english", "--odds", "--json"], { encoding: "utf8" }).stdout);
  const oneIn = Math.round(1 / hinted.random_win).toLocaleString("en-US");
  const odds = await page.locator("#odds").textContent();
  check(hinted.exact && odds === `random play wins from here 1 time in ${oneIn}`, `the odds of random play match pegsol hint (${odds})`);
  await checkColours("English start");

  // The jumps every winning line must play, 25 jumps into a solution, match pegsol hint's.
  const solved = JSON.parse(spawnSync(bin, ["solve", "english", "--json"], { encoding: "utf8" }).stdout).jumps;
  const played = solved.slice(0, 25);
  const forcedHint = JSON.parse(spawnSync(bin, ["hint", "english", "--after", played.join(" "), "--forced", "--json"], { encoding: "utf8" }).stdout).forced;
  await page.goto(url + `#board=english&empty=d4&finish=d4&jumps=${played.join(",")}`);
  await page.reload();
  await statusIs("You can still win");
  await page.waitForFunction(() => document.getElementById("forced").textContent !== "");
  const forcedShown = await page.locator("#forced").textContent();
  check(forcedHint.opening.length === 6 && forcedShown === `only one winning line is left: ${forcedHint.opening.join(" ")}`,
    `the forced line matches pegsol hint --forced (${forcedShown})`);
  // A losing move, then "Show me why" in a player's words (no jargon).
  const early = solved.slice(0, 20);
  const losing = JSON.parse(spawnSync(bin, ["hint", "english", "--after", early.join(" "), "--json"], { encoding: "utf8" }).stdout)
    .moves.find((m) => m.fate === "loses").jump;
  await page.goto(url + `#board=english&empty=d4&finish=d4&jumps=${early.concat([losing]).join(",")}`);
  await page.reload();
  await statusIs("The finish can no longer be reached from here");
  await page.click("#whyBtn");
  await page.waitForFunction(() => !["", "working it out…"].includes(document.getElementById("whyText").textContent));
  const because = await page.locator("#whyText").textContent();
  check(/shaded holes|weight|Every way on|Nothing can be played/.test(because) && !/certificate|verifier|pagoda/i.test(because),
    `after the losing move ${losing}, show me why says it in plain words: ${because}`);
  await page.goto(url + "#board=english&empty=d4&finish=d4&jumps=");
  await page.reload();
  await statusIs("You can still win");

  // Selecting a peg shows only its jumps.
  await hole("d2").click();
  check((await cls("d2")).includes("selected"), "clicking a peg selects it");
  const shown = await page.locator("line.move").evaluateAll((ls) => ls.map((l) => l.dataset.jump));
  check(shown.length === 1 && shown[0] === "d2-d4", `a selected peg shows only its jumps (${shown.join(",")})`);
  await hole("d4").click();
  check((await cls("d4")).includes("peg") && (await cls("d2")).includes("empty") && (await cls("d3")).includes("empty"),
    "d2-d4 moves the peg and removes d3");

  // An invalid click is explained.
  await hole("c1").click();
  await hole("d3").click();
  const message = await page.locator("#message").textContent();
  check(message.includes("cannot jump"), `an invalid jump is explained: "${message}"`);
  await hole("c1").click();

  // Keyboard play: focus f3, Enter selects it, arrow left twice to d3, Enter jumps.
  await hole("f3").focus();
  await page.keyboard.press("Enter");
  check((await cls("f3")).includes("selected"), "Enter selects the focused peg");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  const focused = await page.evaluate(() => document.activeElement.dataset.label);
  check(focused === "d3", `arrow keys move the focus (at ${focused})`);
  await page.keyboard.press("Enter");
  check((await cls("d3")).includes("peg") && (await cls("e3")).includes("empty"), "keyboard: f3-d3 played with Enter");
  await statusIs("You can still win");
  check((await page.locator("#moves").textContent()).trim() === "d2-d4 f3-d3", "move list in notation");
  check((await page.locator("#pegCount").textContent()) === "30", "30 pegs counted");
  await checkColours("English after d2-d4 f3-d3");

  // Undo and redo; a hint goes away on undo.
  await page.click("#hintBtn");
  await page.waitForFunction(() => document.getElementById("hint").textContent.startsWith("Hint: "));
  const hint = (await page.locator("#hint").textContent()).slice(6);
  const [hFrom, hTo] = hint.split("-");
  check((await cls(hFrom)).includes("peg") && (await cls(hTo)).includes("empty"), `hint ${hint} is a legal jump`);
  check((await page.locator("circle.hinted").count()) === 2, "the hinted jump is highlighted");
  await page.click("#undo");
  check((await cls("f3")).includes("peg") && (await cls("d3")).includes("empty"), "undo restores f3 and e3");
  check((await page.locator("#hint").textContent()) === "", "undo clears the stale hint");
  await page.click("#redo");
  check((await cls("d3")).includes("peg"), "redo plays f3-d3 again");

  // The share URL: opening it restores the board, the start and the jumps.
  const shared = page.url();
  check(shared.includes("#board=english") && shared.includes("jumps=d2-d4"), `the URL holds the game (${shared.split("#")[1]})`);
  const other = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  await other.goto(shared);
  await other.waitForFunction(() => document.getElementById("jumpCount").textContent === "2");
  const otherPegs = await other.locator("circle.hole.peg").evaluateAll((cs) => cs.map((c) => c.dataset.label).sort());
  check(JSON.stringify(otherPegs) === JSON.stringify(await pegsOnBoard()), "the shared URL restores the same position");
  await other.close();

  // Solve from here, stepping through the solution. The panels beside the board stay where
  // they are whatever the status says (a shorter status once narrowed the board's column
  // and moved them 50 px).
  const panels = async () => JSON.stringify(await Promise.all(
    ["#layout > .side:nth-child(2)", "#setup"].map(async (sel) => {
      const b = await page.locator(sel).boundingBox();
      return [Math.round(b.x), Math.round(b.y)];
    })));
  const beforeSolve = await panels();
  await page.click("#solveBtn");
  await statusIs("Solved: this is the finish.");
  check((await panels()) === beforeSolve, `the panels stay put after Solve from here (${beforeSolve})`);
  const pegs = await pegsOnBoard();
  check(pegs.length === 1 && pegs[0] === "d4", `one peg left, on d4 (got ${pegs.join(",")})`);
  check((await page.locator("#jumpCount").textContent()) === "31", "31 jumps in the move list");
  await page.click("#prev");
  check((await page.locator("#jumpCount").textContent()) === "30" && (await pegsOnBoard()).length === 2, "the solution steps back");
  await page.locator("#slider").fill("2");
  // Two jumps were played before Solve: the solution's second jump is the fourth.
  check((await page.locator("#jumpCount").textContent()) === "4", "the slider goes to any step");
  await page.click("#next");
  check((await page.locator("#jumpCount").textContent()) === "5", "and forward");
  await page.waitForFunction(() => document.querySelectorAll("line.move").length > 0 &&
    !document.getElementById("status").textContent.startsWith("looking"));
  await page.waitForTimeout(400);
  for (const [theme, dark] of [["light", false], ["dark", true]]) {
    await page.evaluate((d) => setTheme(d), dark);
    await page.screenshot({ path: join(out, `desktop-${theme}.png`) });
  }
  check(true, "desktop screenshots saved (light, dark)");
  await page.evaluate(() => setTheme(false));

  // A stuck game says so.
  const stuckEmpty = ["a2", "a3", "b1", "b3", "c1", "c2", "d1", "d2", "d3", "a1"].join(",");
  await page.goto(url + `#board=rect:3x4&empty=${stuckEmpty}&finish=any&jumps=`);
  await page.reload();
  await statusIs("No moves left: 2 pegs remain");
  check(true, "a stuck game: no moves left, 2 pegs remain");

  // Undecided jumps are counted as not known, never as losing.
  const says = (v) => page.evaluate((v) => statusOf(v)[0], v);
  const fates = (...fs) => fs.map((fate) => ({ fate }));
  check((await says({ status: "winnable", pegs: 9, moves: fates("wins", "unknown", "loses") })) === "You can still win: 1 of 3 jumps keep the finish reachable, 1 not known yet.", "a winnable status counts the undecided jump as not known");
  check((await says({ status: "unknown", pegs: 9, moves: fates("loses", "unknown") })) === "Not known yet: 1 of 2 jumps lose the finish, 1 not decided within the time budget.", "an undecided status counts the losing and the undecided jumps");
  check((await says({ status: "winnable", pegs: 9, moves: fates("wins") })) === "You can still win: 1 of 1 jump keeps the finish reachable.", "one jump, in the singular");

  // A link that holds no usable game says why, and opens English.
  for (const [hash, why] of [["#board=engish", "did you mean english?"], ["#bord=english", "names no board"], ["#board=english&empty=z9", "z9"]]) {
    await page.goto(url + hash);
    await page.reload();
    await page.waitForFunction(() => document.getElementById("message").textContent.includes("showing English instead"));
    const said = await page.locator("#message").textContent();
    check(said.includes(why) && (await page.locator("circle.hole").count()) === 33, `the bad link ${hash} is named and English shown: ${said}`);
  }

  // Every board in the menu opens on a game the solver wins.
  const menu = await page.evaluate(async () => (await (await fetch("/api/boards")).json()).boards);
  const names = await page.locator("#boardName option").evaluateAll((os) => os.map((o) => o.value));
  check(names.length === menu.length && menu.length >= 14, `the menu lists ${menu.length} boards from the library`);
  for (const b of menu) {
    const v = await api("/api/solve", { board: b.name, empty: b.empty, finish: b.finish, timeout: 20 });
    if (v.status !== "solved") fail(`${b.name}: its default game is ${v.status}`);
  }
  check(true, "every menu board's default game is solved by the API");

  // Every menu board opens decided: once the server has its opening's fates (prepared at
  // start, or asked here until it has them), the page shows a decided status within 2 s, and
  // its count of winning jumps is /api/solve's on each jump's position.
  for (const b of menu) {
    let open = true;
    for (let i = 0; i < 30 && open; i++) {
      const v = await api("/api/analyse", { board: b.name, empty: b.empty, finish: b.finish, jumps: [], timeout: 5 });
      open = v.moves.some((m) => m.fate === "unknown");
    }
    if (open) fail(`${b.name}: an opening jump is still not decided`);
  }
  await page.goto(url);
  await hole("d4").waitFor();
  for (const b of menu) {
    const began = Date.now();
    // The status the page shows now is cleared first: selecting the board the page already
    // shows (English, first) leaves the same number of holes, and the old status would pass
    // the wait below before the new analysis has written its own.
    await page.evaluate(() => { document.getElementById("status").textContent = ""; });
    await page.selectOption("#boardName", b.name);
    await page.waitForFunction((n) => document.querySelectorAll("circle.hole").length === n &&
      document.getElementById("status").textContent.startsWith("You can still win"), b.holes, { timeout: 2000 })
      .catch(() => fail(`${b.name}: no decided status within 2 s (${Date.now() - began} ms)`));
    const status = await page.locator("#status").textContent();
    const lines = await page.locator("line.move").evaluateAll((ls) => ls.map((l) => [l.dataset.jump, l.dataset.fate]));
    const geoJumps = await page.evaluate(() => geo.jumps);
    let wins = 0;
    for (const [jump, fate] of lines) {
      const [from, to] = jump.split("-");
      const over = geoJumps.find((j) => j[0] === from && j[2] === to)[1];
      const after = b.empty.filter((l) => l !== to).concat([from, over]);
      const v = await api("/api/solve", { board: b.name, empty: after, finish: b.finish, timeout: 20 });
      const want = v.status === "solved" ? "wins" : v.status === "impossible" ? "loses" : "unknown";
      if (fate !== want) fail(`${b.name}: ${jump} is shown ${fate}, /api/solve says ${v.status}`);
      wins += fate === "wins";
    }
    const said = `You can still win: ${wins} of ${lines.length} ${lines.length === 1 ? "jump keeps" : "jumps keep"} the finish reachable.`;
    if (status !== said) fail(`${b.name}: the status says "${status}", the jumps "${said}"`);
  }
  check(true, `every menu board opens decided within 2 s, each jump's colour and the count as /api/solve says (${menu.length} boards)`);
  await page.goto(url);
  await hole("d4").waitFor();
  await page.selectOption("#boardName", "french");
  await page.waitForFunction(() => document.querySelectorAll("circle.hole").length === 37);
  await page.waitForFunction(() => !document.getElementById("status").textContent.startsWith("looking"));
  check(!(await page.locator("#status").getAttribute("class")).includes("lose"), "french opens on a game that is not lost");
  check(await page.locator("#classic").isVisible(), "the page says the classic French game cannot be won");
  const beforeWhy = await panels();
  await page.click("#whyBtn");
  await page.waitForFunction(() => document.querySelectorAll("circle.why-set").length > 0);
  check((await panels()) === beforeWhy, `the panels stay put when the proof appears (${beforeWhy})`);
  check((await page.locator("#whyText").textContent()).includes("shaded holes"), "show me why draws the class set");

  // A triangular board is drawn as a triangle.
  await page.selectOption("#boardName", "triangle5");
  await page.waitForFunction(() => document.querySelectorAll("circle.hole").length === 15);
  const cx = async (l) => Number(await hole(l).getAttribute("cx"));
  const [apex, left, right] = [await cx("a1"), await cx("a5"), await cx("e5")];
  check(Math.abs(apex - (left + right) / 2) < 1e-6, "triangle5: the apex is centred over the base");
  await statusIs("You can still win");

  // Set up a problem by clicking: the finish moved from a1 to c5; then c3 emptied at the start.
  await page.selectOption("#mode", "finish");
  await hole("a1").click();
  check((await page.locator("#finishText").textContent()).includes("(none yet)"), "clicking the finish hole clears it");
  await hole("c5").click();
  check((await page.locator("#finishText").textContent()) === "finish: c5", "finish chosen by clicking");
  await hole("a4").click();
  check((await page.locator("#finishText").textContent()) === "finish: a4", "a click moves the finish");
  await hole("c5").click({ modifiers: ["Shift"] });
  check((await page.locator("#finishText").textContent()) === "finish: a4 c5", "shift-click adds a finish hole");
  await hole("a4").click();
  await hole("c5").click();
  await statusIs("You can still win");
  await page.selectOption("#mode", "start");
  await hole("c3").click();
  check((await cls("c3")).includes("empty"), "a start peg removed by clicking");
  await statusIs("cannot be won from its start");
  check((await page.locator("#status").textContent()).includes("Finish: one peg anywhere")
    && ((await page.locator("#finishAny").getAttribute("class")) || "").includes("suggest"),
    "a1 and c3 empty, finish c5: lost before the first jump, and the page points at one peg anywhere");
  await page.click("#finishAny");
  await statusIs("You can still win");
  check(!((await page.locator("#finishAny").getAttribute("class")) || "").includes("suggest"), "with one peg anywhere it can, and the pointer is gone");
  await page.selectOption("#mode", "play");

  // The board editor saves a board file that pegsol show parses.
  await page.locator("#editor summary").click();
  await page.fill("#edRows", "3");
  await page.fill("#edCols", "4");
  await page.click('#edGrid button[data-r="0"][data-c="0"]');
  await page.click('#edGrid button[data-r="1"][data-c="3"]');
  await page.click('#edGrid button[data-r="1"][data-c="3"]');
  await page.selectOption("#edLattice", "diagonal");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#edSave")]);
  const file = join(out, "edited-board.txt");
  await download.saveAs(file);
  const text = readFileSync(file, "utf8");
  check(text.startsWith("lattice: diagonal\n") && text.includes("."), `the editor wrote ${JSON.stringify(text)}`);
  const shown2 = spawnSync(bin, ["show", file], { encoding: "utf8" });
  check(shown2.status === 0, `pegsol show parses the saved board (${(shown2.stderr || "").trim() || "exit 0"})`);
  await page.click("#edPlay");
  await page.waitForFunction(() => document.querySelectorAll("circle.hole").length === 11);
  check((await page.locator("#boardName").inputValue()) === "custom", "a pasted or edited board shows as your board in the menu");

  // The phone layout keeps the board and the status in view.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.goto(url);
  await phone.locator('circle.hole[data-label="d4"]').waitFor();
  await phone.waitForFunction(() => document.getElementById("status").textContent.includes("You can still win"));
  const inView = async (sel) => {
    const b = await phone.locator(sel).boundingBox();
    return b && b.x >= 0 && b.y >= 0 && b.x + b.width <= 390 + 0.5 && b.y + b.height <= 844 + 0.5;
  };
  check(await inView("#board") && await inView("#status"), "phone: the board and the status both fit in 390x844");
  await phone.locator('circle.hole[data-label="d2"]').tap();
  await phone.locator('circle.hole[data-label="d4"]').tap();
  check(((await phone.locator('circle.hole[data-label="d4"]').getAttribute("class")) || "").includes("peg"), "phone: a jump by touch");
  for (const [theme, dark] of [["light", false], ["dark", true]]) {
    await phone.evaluate((d) => setTheme(d), dark);
    await phone.screenshot({ path: join(out, `phone-${theme}.png`) });
  }
  check(true, "phone screenshots saved (light, dark)");
  await phone.close();
} finally {
  await browser.close();
  server.kill();
}
console.log("e2e passed");
