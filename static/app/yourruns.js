// The "Your runs" list: every run this browser session has open
// (GET /api/runs), with a button to free each, so a full quota can be freed
// from any page rather than by hunting for the tab that holds it.

import { deleteRun, request } from "./api.js";

// runLabel says what a run is in a few words.
export function runLabel(r, labels) {
  const name = labels[r.method] ?? r.method;
  return `${name} on ${r.data}, seed ${r.seed}: ${r.status}, step ${Number(r.step).toLocaleString("en-US")}${r.viewers ? "" : " (unwatched)"}`;
}

// setupYourRuns fills list each time menu opens; here lists the page's own
// run ids, which are marked "this page" and not offered for freeing.
export function setupYourRuns(menu, list, labels, here) {
  const fill = async () => {
    let runs;
    try {
      runs = await request("GET", "/api/runs");
    } catch (e) {
      list.replaceChildren(item(`Could not list your runs: ${e}`));
      return;
    }
    if (!runs.length) {
      list.replaceChildren(item("No runs open."));
      return;
    }
    const ids = new Set(here());
    list.replaceChildren(
      ...runs.map((r) => {
        const li = item(runLabel(r, labels));
        li.dataset.run = r.id;
        if (ids.has(r.id)) {
          li.append(" — this page");
        } else {
          const b = document.createElement("button");
          b.type = "button";
          b.textContent = "Free";
          b.title = "Stop and delete this run, freeing its slot";
          b.addEventListener("click", async () => {
            await deleteRun(r.id);
            fill();
          });
          li.append(" ", b);
        }
        return li;
      }),
    );
  };
  menu.addEventListener("toggle", () => {
    if (menu.open) fill();
  });
  return fill;
}

function item(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}
