# Sign executables with signtool when a certificate is configured; otherwise say so and skip.
#   $env:HEARTH_SIGN_CERT (path to .pfx) and $env:HEARTH_SIGN_PASSWORD, or
#   $env:HEARTH_SIGN_THUMBPRINT (a certificate in the user's store).
param([Parameter(Mandatory = $true)][string]$Target)
$ErrorActionPreference = "Stop"
if (-not $env:HEARTH_SIGN_CERT -and -not $env:HEARTH_SIGN_THUMBPRINT) {
    Write-Host "No signing certificate configured: leaving $Target unsigned"
    exit 0
}
$files = if (Test-Path $Target -PathType Container) {
    Get-ChildItem $Target -Recurse -Include *.exe, *.dll, *.pyd | ForEach-Object FullName
} else { @($Target) }
$common = @("sign", "/fd", "sha256", "/tr", "http://timestamp.digicert.com", "/td", "sha256")
if ($env:HEARTH_SIGN_CERT) { $common += @("/f", $env:HEARTH_SIGN_CERT, "/p", $env:HEARTH_SIGN_PASSWORD) }
else { $common += @("/sha1", $env:HEARTH_SIGN_THUMBPRINT) }
foreach ($f in $files) {
    & signtool.exe @common $f
    if ($LASTEXITCODE) { throw "signtool failed on $f" }
}
