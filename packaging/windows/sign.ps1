# Sign Hearth's executables and DLLs with signtool when a certificate is configured; otherwise
# say so and skip (an unsigned build still runs, with a SmartScreen warning).
#   $env:HEARTH_SIGN_CERT (path to a .pfx) and $env:HEARTH_SIGN_PASSWORD, or
#   $env:HEARTH_SIGN_THUMBPRINT (a certificate in the current user's store)
#   $env:HEARTH_SIGN_TIMESTAMP_URL (default: DigiCert's RFC 3161 server)
#   -InnoSignTool prints the same signtool command line for Inno Setup's SignTool directive
#   (ISCC /Shearth=...), so the installer's uninstaller is signed as it is compiled; prints
#   nothing when no certificate is configured.
param([string]$Target, [switch]$InnoSignTool)
$ErrorActionPreference = "Stop"
if (-not $env:HEARTH_SIGN_CERT -and -not $env:HEARTH_SIGN_THUMBPRINT) {
    if (-not $InnoSignTool) { Write-Host "No signing certificate configured: leaving $Target unsigned" }
    exit 0
}
if (-not $InnoSignTool -and -not $Target) { throw "usage: sign.ps1 TARGET | -InnoSignTool" }
$signtool = (Get-Command signtool.exe -ErrorAction SilentlyContinue).Source
if (-not $signtool) {  # not on PATH outside a developer prompt: take the newest Windows SDK's
    $signtool = Get-ChildItem "${env:ProgramFiles(x86)}\Windows Kits\10\bin\*\x64\signtool.exe" |
        Sort-Object FullName | Select-Object -Last 1 -ExpandProperty FullName
}
if (-not $signtool) { throw "signtool.exe not found (install the Windows SDK)" }
$files = if (-not $Target) { @() } elseif (Test-Path $Target -PathType Container) {
    Get-ChildItem $Target -Recurse -Include *.exe, *.dll, *.pyd | ForEach-Object FullName
} else { @($Target) }
$timestamp = if ($env:HEARTH_SIGN_TIMESTAMP_URL) { $env:HEARTH_SIGN_TIMESTAMP_URL } else { "http://timestamp.digicert.com" }
$common = @("sign", "/fd", "sha256", "/tr", $timestamp, "/td", "sha256")
if ($env:HEARTH_SIGN_CERT) { $common += @("/f", $env:HEARTH_SIGN_CERT, "/p", $env:HEARTH_SIGN_PASSWORD) }
else { $common += @("/sha1", $env:HEARTH_SIGN_THUMBPRINT) }
if ($InnoSignTool) {
    # Inno replaces $f with the file to sign and $q with a double quote.
    $quotedArgs = $common | ForEach-Object { if ($_ -match '[\s"]') { '$q' + $_ + '$q' } else { $_ } }
    Write-Output ('$q' + $signtool + '$q ' + ($quotedArgs -join " ") + ' $q$f$q')
    exit 0
}
foreach ($f in $files) {
    # Keep vendors' own signatures (Python, Qt, NVIDIA): re-signing would replace them.
    if ((Get-AuthenticodeSignature $f).Status -eq "Valid") { continue }
    & $signtool @common $f
    if ($LASTEXITCODE) { throw "signtool failed on $f" }
}
Write-Host "signed $($files.Count) files under $Target"
