# Build Hearth for Windows x64: a portable folder (packaging\dist\Hearth with Hearth.exe, the
# windowed app, and hearth-cli.exe, its console twin for `hearth ask` and the self-test), a zip
# and a per-user Inno Setup installer. CPU by default; -Cuda builds llama.cpp with CUDA (needs
# MSVC and the CUDA toolkit here; the NVIDIA runtime DLLs ship beside ggml-cuda.dll).
#   powershell -ExecutionPolicy Bypass -File packaging\windows\build.ps1 [-Cuda]
# Signing: see sign.ps1 (cloud signing: HEARTH_SIGN_ENDPOINT/_ACCOUNT/_PROFILE; fallback: a .pfx).
# HEARTH_BOOTLOADER_FROM_SOURCE=1 compiles PyInstaller's bootloader here (needs MSVC) instead of
# using the prebuilt one, whose bytes antivirus engines have learned to flag.
param([switch]$Cuda)
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..\..")

function Invoke-Checked([string]$What, [scriptblock]$Block) {
    & $Block
    if ($LASTEXITCODE) { throw "$What failed (exit code $LASTEXITCODE)" }
}

# $env:PYTHON picks the interpreter for a new .venv (default: python on PATH, 3.11 or newer).
$base = if ($env:PYTHON) { $env:PYTHON } else { "python" }
if (-not (Test-Path .venv\Scripts\python.exe)) { Invoke-Checked "venv" { & $base -m venv .venv } }
$py = (Resolve-Path .venv\Scripts\python.exe).Path
Invoke-Checked "pip upgrade" { & $py -m pip install --quiet --upgrade pip }

# Portable llama.cpp: no tuning to this machine's CPU (GGML_NATIVE=OFF) but an AVX2 baseline,
# and no OpenMP, so the MSVC OpenMP runtime (vcomp140.dll, not collected by PyInstaller) is
# not needed.
$env:CMAKE_ARGS = "-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_OPENMP=OFF"
$variant = "cpu"
$maxMb = 500
if ($Cuda) {
    # Ninja, not scikit-build-core's default Visual Studio generator: that one needs CUDA's
    # MSBuild integration, which the toolkit install may lack ("No CUDA toolset found",
    # abetlen/llama-cpp-python#1917). Ninja uses cl.exe and nvcc from the MSVC dev shell.
    Invoke-Checked "ninja" { & $py -m pip install --quiet "ninja>=1.11" }
    $env:CMAKE_GENERATOR = "Ninja"
    # Turing to Ada as real code plus Ada PTX, which newer GPUs compile at first load.
    # NO_VMM: no link to the driver API (nvcuda.dll), so the app still starts on PCs without an
    # NVIDIA driver and llama.cpp falls back to the CPU.
    $env:CMAKE_ARGS += " -DGGML_CUDA=ON -DGGML_CUDA_NO_VMM=ON -DCMAKE_CUDA_ARCHITECTURES=75-real;86-real;89"
    $variant = "cuda"
    $maxMb = 1600  # cuBLAS alone is ~600 MB
}
# Always from source with these flags (no cached wheel built with other flags).
Invoke-Checked "pip install" {
    & $py -m pip install --quiet --no-cache-dir --no-binary llama-cpp-python -e ".[package,test]"
}
if ($env:HEARTH_BOOTLOADER_FROM_SOURCE) {
    $pyinstaller = (& $py -c "from importlib.metadata import version; print(version('pyinstaller'))")
    $env:PYINSTALLER_COMPILE_BOOTLOADER = "1"
    Invoke-Checked "bootloader" {
        & $py -m pip install --quiet --no-cache-dir --force-reinstall --no-deps `
            --no-binary pyinstaller "pyinstaller==$pyinstaller"
    }
}
Invoke-Checked "assets" { & $py packaging\make_assets.py }
Invoke-Checked "pyinstaller" {
    & $py -m PyInstaller --noconfirm --log-level WARN `
        --distpath packaging\dist --workpath packaging\build\work packaging\hearth.spec
}
$lib = "packaging\dist\Hearth\_internal\llama_cpp\lib"
if (-not (Test-Path "$lib\llama.dll")) { throw "llama.dll is not in $lib" }
# The MSVC runtime must travel inside the bundle: hosted runners (and developers' PCs) have it
# installed system-wide, so a bundle without it passes every test here and fails on a clean PC.
# At _internal's top, where the loader looks for every DLL: PySide6 ships its own copies in
# _internal\PySide6\, which only Qt's own DLLs find, so those do not count.
foreach ($dll in "msvcp140.dll", "vcruntime140.dll", "vcruntime140_1.dll") {
    if (-not (Test-Path "packaging\dist\Hearth\_internal\$dll")) {
        throw "$dll is not in packaging\dist\Hearth\_internal (the MSVC runtime must be bundled there)"
    }
}
if ($Cuda) {
    # cudart/cublas are NVIDIA redistributables; llama_cpp adds its lib folder to the DLL search
    # path, so ggml-cuda.dll finds them there.
    foreach ($dll in "cudart64_12.dll", "cublas64_12.dll", "cublasLt64_12.dll") {
        Copy-Item (Join-Path $env:CUDA_PATH "bin\$dll") $lib
    }
}
Invoke-Checked "smoke test" { & $py packaging\smoke_test.py packaging\dist --max-mb $maxMb }
Invoke-Checked "signing" { & powershell -ExecutionPolicy Bypass -File packaging\windows\sign.ps1 packaging\dist\Hearth }
$version = (& $py -c "import tomllib;print(tomllib.load(open('pyproject.toml','rb'))['project']['version'])")
Compress-Archive -Force packaging\dist\Hearth "packaging\dist\Hearth-$version-windows-$variant.zip"

$iscc = (Get-Command iscc.exe -ErrorAction SilentlyContinue).Source
if (-not $iscc) { $iscc = Join-Path ${env:ProgramFiles(x86)} "Inno Setup 6\ISCC.exe" }
if (Test-Path $iscc) {
    $innoSign = & powershell -ExecutionPolicy Bypass -File packaging\windows\sign.ps1 -InnoSignTool
    $signArgs = if ($innoSign) { @("/Shearth=$innoSign") } else { @("/DNoSigning") }
    Invoke-Checked "installer" { & $iscc /Qp "/DVersion=$version" "/DVariant=$variant" @signArgs packaging\windows\installer.iss }
    $setup = "packaging\dist\Hearth-$version-$variant-setup.exe"
    Invoke-Checked "signing" { & powershell -ExecutionPolicy Bypass -File packaging\windows\sign.ps1 $setup }
    # As a user gets it: a silent per-user install, the smoke test on the installed copy, and a
    # silent uninstall that must leave no program folder behind (user data is asked about).
    $root = Join-Path $env:LOCALAPPDATA "Programs\HearthSmoke"
    $dest = Join-Path $root "Hearth"
    $quiet = "/VERYSILENT", "/SUPPRESSMSGBOXES", "/NORESTART"
    $p = Start-Process -Wait -PassThru $setup -ArgumentList ($quiet + "/DIR=`"$dest`"")
    if ($p.ExitCode) { throw "the installer failed (exit code $($p.ExitCode))" }
    Invoke-Checked "installed smoke test" { & $py packaging\smoke_test.py $root --max-mb $maxMb }
    # A silent uninstall must not stop at the "delete your data?" question, and must keep the
    # data (its default answer): a marker in the data folder has to survive it.
    $data = Join-Path $env:LOCALAPPDATA "Hearth"
    $madeData = -not (Test-Path $data)
    New-Item -ItemType Directory -Force $data | Out-Null
    $marker = Join-Path $data "uninstall-smoke-marker"
    Set-Content $marker "keep me"
    $p = Start-Process -Wait -PassThru (Join-Path $dest "unins000.exe") -ArgumentList $quiet
    if ($p.ExitCode) { throw "the uninstaller failed (exit code $($p.ExitCode))" }
    Start-Sleep -Seconds 3  # the uninstaller deletes its own exe from a helper process
    if (Test-Path (Join-Path $dest "Hearth.exe")) { throw "the uninstaller left $dest behind" }
    if (-not (Test-Path $marker)) { throw "a silent uninstall deleted the user's data" }
    Remove-Item $marker
    if ($madeData) { Remove-Item -Recurse $data }
} else {
    Write-Host "Inno Setup (ISCC.exe) not found: skipping the installer; the zip is portable"
}
Write-Host "built packaging\dist\Hearth ($variant)"
