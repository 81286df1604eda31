# Sign Hearth's executables and DLLs with signtool when signing is configured; otherwise say so
# and skip (an unsigned build still runs, with a SmartScreen warning). In order of preference:
#   Cloud signing (Azure Artifact Signing, formerly Trusted Signing): the key never leaves
#   Microsoft's HSM, which is how new code-signing certificates come since the CA/B Forum's
#   2023 hardware-key rule.
#     $env:HEARTH_SIGN_ENDPOINT   e.g. https://eus.codesigning.azure.net
#     $env:HEARTH_SIGN_ACCOUNT    the signing account's name
#     $env:HEARTH_SIGN_PROFILE    the certificate profile's name
#     $env:AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET   a service principal with the
#                                 "Trusted Signing Certificate Profile Signer" role (or any
#                                 other credential DefaultAzureCredential finds)
#     $env:HEARTH_SIGN_DLIB       optional: Azure.CodeSigning.Dlib.dll; without it the NuGet
#                                 package Microsoft.Trusted.Signing.Client is fetched
#   Fallback, an exportable certificate (older ones; kept only for those):
#     $env:HEARTH_SIGN_CERT (path to a .pfx) or $env:HEARTH_SIGN_PFX_BASE64 (its bytes), with
#     $env:HEARTH_SIGN_PASSWORD; or $env:HEARTH_SIGN_THUMBPRINT (a certificate in the current
#     user's store, e.g. on a hardware token)
#   $env:HEARTH_SIGN_TIMESTAMP_URL   default: Microsoft's (cloud) or DigiCert's RFC 3161 server
#   -InnoSignTool prints the same signtool command line for Inno Setup's SignTool directive
#   (ISCC /Shearth=...), so the installer's uninstaller is signed as it is compiled; prints
#   nothing when no signing is configured.
param([string]$Target, [switch]$InnoSignTool)
$ErrorActionPreference = "Stop"
$cloud = [bool]$env:HEARTH_SIGN_ENDPOINT
if (-not $cloud -and -not $env:HEARTH_SIGN_CERT -and -not $env:HEARTH_SIGN_PFX_BASE64 -and
        -not $env:HEARTH_SIGN_THUMBPRINT) {
    if (-not $InnoSignTool) { Write-Host "No signing configured: leaving $Target unsigned" }
    exit 0
}
if (-not $InnoSignTool -and -not $Target) { throw "usage: sign.ps1 TARGET | -InnoSignTool" }
$signtool = (Get-Command signtool.exe -ErrorAction SilentlyContinue).Source
if (-not $signtool) {  # not on PATH outside a developer prompt: take the newest Windows SDK's
    $signtool = Get-ChildItem "${env:ProgramFiles(x86)}\Windows Kits\10\bin\*\x64\signtool.exe" |
        Sort-Object FullName | Select-Object -Last 1 -ExpandProperty FullName
}
if (-not $signtool) { throw "signtool.exe not found (install the Windows SDK)" }
$work = Join-Path ([IO.Path]::GetTempPath()) "hearth-sign"
New-Item -ItemType Directory -Force $work | Out-Null
if ($cloud) {
    $timestamp = if ($env:HEARTH_SIGN_TIMESTAMP_URL) { $env:HEARTH_SIGN_TIMESTAMP_URL } else { "http://timestamp.acs.microsoft.com" }
    $dlib = $env:HEARTH_SIGN_DLIB
    if (-not $dlib) {
        $dlib = Join-Path $work "Microsoft.Trusted.Signing.Client\bin\x64\Azure.CodeSigning.Dlib.dll"
        if (-not (Test-Path $dlib)) {
            & nuget.exe install Microsoft.Trusted.Signing.Client -OutputDirectory $work -ExcludeVersion -NonInteractive | Out-Null
            if ($LASTEXITCODE) { throw "could not fetch Microsoft.Trusted.Signing.Client (set HEARTH_SIGN_DLIB)" }
        }
    }
    $metadata = Join-Path $work "metadata.json"
    @{ Endpoint = $env:HEARTH_SIGN_ENDPOINT; CodeSigningAccountName = $env:HEARTH_SIGN_ACCOUNT
       CertificateProfileName = $env:HEARTH_SIGN_PROFILE } | ConvertTo-Json | Set-Content -Encoding utf8 $metadata
    $how = @("/dlib", $dlib, "/dmdf", $metadata)
} else {
    $timestamp = if ($env:HEARTH_SIGN_TIMESTAMP_URL) { $env:HEARTH_SIGN_TIMESTAMP_URL } else { "http://timestamp.digicert.com" }
    $cert = $env:HEARTH_SIGN_CERT
    if (-not $cert -and $env:HEARTH_SIGN_PFX_BASE64) {
        $cert = Join-Path $work "hearth-sign.pfx"  # in the runner's temp, never in GITHUB_ENV
        [IO.File]::WriteAllBytes($cert, [Convert]::FromBase64String($env:HEARTH_SIGN_PFX_BASE64))
    }
    $how = if ($cert) { @("/f", $cert, "/p", $env:HEARTH_SIGN_PASSWORD) } else { @("/sha1", $env:HEARTH_SIGN_THUMBPRINT) }
}
$common = @("sign", "/fd", "sha256", "/tr", $timestamp, "/td", "sha256") + $how
if ($InnoSignTool) {
    # Inno replaces $f with the file to sign and $q with a double quote.
    $quotedArgs = $common | ForEach-Object { if ($_ -match '[\s"]') { '$q' + $_ + '$q' } else { $_ } }
    Write-Output ('$q' + $signtool + '$q ' + ($quotedArgs -join " ") + ' $q$f$q')
    exit 0
}
$files = if (Test-Path $Target -PathType Container) {
    Get-ChildItem $Target -Recurse -Include *.exe, *.dll, *.pyd | ForEach-Object FullName
} else { @($Target) }
foreach ($f in $files) {
    # Keep vendors' own signatures (Python, Qt, NVIDIA): re-signing would replace them.
    if ((Get-AuthenticodeSignature $f).Status -eq "Valid") { continue }
    & $signtool @common $f
    if ($LASTEXITCODE) { throw "signtool failed on $f" }
}
Write-Host "signed $($files.Count) files under $Target"
