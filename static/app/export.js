// Export a panel's history as CSV (long format: series, step, value) or as
// JSON (everything, including the latest band and the control marks).

import { saveBlob } from "./plots.js";

function record(panel) {
  const c = panel.app.config;
  const traces = {};
  for (const [name, t] of panel.traces) traces[name] = t.series.points();
  return {
    method: panel.method,
    label: panel.spec.label,
    model: panel.model || null,
    data: c.data,
    seed: c.seed,
    run: panel.runId,
    step: panel.step,
    status: panel.status,
    exported_at: new Date().toISOString(),
    link: location.href,
    controls: { ...panel.confirmed },
    smoothing: panel.app.smoothing,
    objective: panel.objective.points(),
    objective_smoothed: panel.objective.x.map((x, i) => [x, panel.objective.s[i]]),
    traces,
    marks: panel.marks,
    diagnostics: panel.diagnostics,
    predictive: panel.band,
  };
}

export function exportJSON(panel) {
  const blob = new Blob([JSON.stringify(record(panel), null, 1)], { type: "application/json" });
  saveBlob(blob, `${panel.fileStem()}.json`);
}

export function exportCSV(panel) {
  const r = record(panel);
  const lines = ["series,step,value"];
  const add = (name, pts) => {
    for (const [s, v] of pts) lines.push(`${csvCell(name)},${s},${v}`);
  };
  add("objective", r.objective);
  add("objective_smoothed", r.objective_smoothed);
  for (const [name, pts] of Object.entries(r.traces)) add(`trace:${name}`, pts);
  for (const m of r.marks) lines.push(`${csvCell(`mark:${m.name}`)},${m.step},${csvCell(String(m.value))}`);
  saveBlob(new Blob([lines.join("\n") + "\n"], { type: "text/csv" }), `${panel.fileStem()}.csv`);
}

function csvCell(s) {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
