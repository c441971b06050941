# JupyterLab's (jupyter server's) settings for serving sheetkit, e.g. on Binder (binder/start puts this folder
# on the Jupyter config path); Voila inside JupyterLab reads voila.py beside this file for its own part.
load_subconfig("class_server.py")  # noqa: F821 (traitlets gives config files load_subconfig)
