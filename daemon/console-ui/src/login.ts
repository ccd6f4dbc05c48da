// The login page: says so when the last token offered was refused (the server redirects with ?failed=1).
const failed = document.getElementById("failed");
if (failed !== null && new URLSearchParams(location.search).has("failed")) failed.hidden = false;
