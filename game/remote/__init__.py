"""Play on separate devices with no server: the deal's cryptography and the device-to-device protocol."""
