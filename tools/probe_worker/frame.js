document.getElementById("probe").src = decodeURIComponent(location.hash.slice(1));
