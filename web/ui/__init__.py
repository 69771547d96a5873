"""Drawing pieces any page or game uses: the DOM builder, charts, still boards, the slice scheduler,
the typed page contexts and the registry of games' views."""
