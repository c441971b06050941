# Serving settings for a class on one server, shared by voila.py (Voila on its own: ./dev play) and
# jupyter_server_config.py (JupyterLab with Voila inside it: Binder, a JupyterHub). docs/classroom.md explains them.
#
# Voila starts one kernel (~100 MB) per page load. A closed page shuts its own kernel down (voila.py makes that
# request pass); the culler ends the kernels of pages that could not say goodbye (a phone put to sleep, a
# crashed tab) and of pages left untouched: after SHEETKIT_CULL_IDLE seconds without a message between page and
# kernel (default 20 minutes, long enough for a student to think for 10), checked every SHEETKIT_CULL_INTERVAL
# seconds (default 60). Open pages are culled too (cull_connected): a tab left open all day would hold its
# kernel all day; a student who comes back later finds the "Reload to carry on" banner, and the reload brings
# the game back from the page's link (widgets/page_link.py). SHEETKIT_CULL_IDLE=0 turns culling off.
import os


def _seconds(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    try:
        return max(0, int(raw)) if raw else default
    except ValueError:
        return default


c = get_config()  # noqa: F821 (traitlets gives config files get_config)
c.MappingKernelManager.cull_idle_timeout = _seconds("SHEETKIT_CULL_IDLE", 20 * 60)
c.MappingKernelManager.cull_interval = max(1, _seconds("SHEETKIT_CULL_INTERVAL", 60))
c.MappingKernelManager.cull_connected = True

# Voila runs the notebook before it sends the page, and after each cell waits for the cell's outputs (a table's
# widget among them) for VoilaExecutor.iopub_timeout seconds, 4 by default. When 30 pages open at once the 30
# kernels share the server's cores and a cell's outputs can take longer than that: Voila then gave up on them
# and sent the page without its table, which never became playable. A minute covers a class opening together.
c.VoilaExecutor.iopub_timeout = _seconds("SHEETKIT_IOPUB_TIMEOUT", 60)
# Starting 30 kernels at once can take longer than Voila's 60 s too.
c.VoilaExecutor.startup_timeout = 180
