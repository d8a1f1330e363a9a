import { runScenario } from "./bench/load.ts";
import { startBenchServer, startCalibrationServer } from "./bench/server.ts";
const floor = await startCalibrationServer({ assets: false });
const server = await startBenchServer();
try {
  const f: number[] = [], h: number[] = [];
  for (let i = 0; i < 4; i++) {
    f.push((await runScenario("floor", { url: floor.url, seconds: 3, connections: 10, request: { path: "/api/v1/health" } })).rps);
    h.push((await runScenario("health", { url: server.url, seconds: 3, connections: 10, request: { path: "/api/v1/health" } })).rps);
  }
  console.log("floor", f.join(" "), "health", h.join(" "), "ratios", h.map((x, i) => (x / f[i]).toFixed(2)).join(" "));
} finally { await server.dispose(); await floor.dispose(); }
