# Voila's settings for serving sheetkit (Voila reads voila.py from the Jupyter config path: ./dev play and
# binder/start put this folder on it). The culling settings are shared with JupyterLab's (class_server.py).
load_subconfig("class_server.py")  # noqa: F821 (traitlets gives config files load_subconfig)


def _set_xsrf_cookie(handler, notebook, cwd):
    """Make Tornado set the ``_xsrf`` cookie on the dashboard page's response (the hook runs before each page)."""
    # When a page closes, Voila's page asks the server to shut its kernel down, sending the _xsrf cookie's value as
    # proof that the request comes from the page itself. Voila's page handler never reads xsrf_token, so Tornado
    # never set that cookie and the request was refused (403 "'_xsrf' argument missing"): every closed tab kept
    # its kernel until the culler came. Reading the token is what sets the cookie.
    handler.xsrf_token  # noqa: B018 (read for its effect: Tornado sets the cookie)
    return None          # the notebook as it is


c = get_config()  # noqa: F821
c.VoilaConfiguration.prelaunch_hook = _set_xsrf_cookie
