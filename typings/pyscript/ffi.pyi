# pyscript.ffi as the site uses it (https://docs.pyscript.net/latest/user-guide/ffi/).
from typing import Any, Callable

class JsProxy:
    """A JavaScript function that calls a Python one until it is destroyed (Pyodide's proxy of a callable)."""

    def destroy(self) -> None: ...

def create_proxy(function: Callable[..., object]) -> JsProxy: ...

# A Python value as a JavaScript one (lists as arrays, dicts as objects); the result is for JavaScript.
def to_js(value: object, **options: Any) -> Any: ...
