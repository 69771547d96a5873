# The part of PyScript's `pyscript` module the site uses (https://docs.pyscript.net/latest/api/).
# `window` and `document` are the page's JavaScript objects reached through Pyodide's proxies: any
# attribute, any call, checked by the browser and not by Python, so they are typed Any.
from typing import Any

window: Any
document: Any
