"""The browser side of Scarab. Pure modules (i18n, router, storage) run in CPython tests too;
modules that touch the DOM import ``pyscript`` and load only in the page."""
