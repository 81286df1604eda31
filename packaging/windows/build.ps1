# Build Hearth for Windows: a portable folder (dist\Hearth with Hearth.exe + hearth-cli.exe), a zip
# and an Inno Setup installer. CPU by default; -Cuda builds llama.cpp with CUDA (needs the CUDA
# toolkit and MSVC on the build machine; the NVIDIA runtime DLLs are shipped beside ggml-cuda.dll).
#   powershell -ExecutionPolicy Bypass -File packaging\windows\build.ps1 [-Cuda]
param([switch]$Cuda)
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..\..")

if (-not (Test-Path .venv\Scripts\python.exe)) { py -3.11 -m venv .venv }
$py = ".venv\Scripts\python.exe"
& $py -m pip install --quiet --upgrade pip
# A portable llama.cpp build: no -march=native tuning to the build machine's CPU; no OpenMP DLL.
$env:CMAKE_ARGS = "-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_OPENMP=OFF"
$variant = "cpu"
if ($Cuda) {
    $env:CMAKE_ARGS += " -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=75;86;89;120"
    $variant = "cuda"
}
& $py -m pip install --quiet --no-binary llama-cpp-python -e ".[package,test]"
if ($LASTEXITCODE) { throw "pip install failed" }
& $py packaging\make_assets.py
& .venv\Scripts\pyinstaller.exe --noconfirm --log-level WARN `
    --distpath packaging\dist --workpath packaging\build\work packaging\hearth.spec
if ($LASTEXITCODE) { throw "pyinstaller failed" }
if ($Cuda) {
    # cudart/cublas are NVIDIA redistributables; llama.cpp loads them from the exe's folder.
    $lib = "packaging\dist\Hearth\_internal\llama_cpp\lib"
    foreach ($dll in "cudart64_12.dll", "cublas64_12.dll", "cublasLt64_12.dll") {
        Copy-Item (Join-Path $env:CUDA_PATH "bin\$dll") $lib
    }
}
& $py packaging\smoke_test.py packaging\dist --max-mb 900
if ($LASTEXITCODE) { throw "smoke test failed" }
& powershell -ExecutionPolicy Bypass -File packaging\windows\sign.ps1 packaging\dist\Hearth
$version = (& $py -c "import tomllib;print(tomllib.load(open('pyproject.toml','rb'))['project']['version'])")
Compress-Archive -Force packaging\dist\Hearth "packaging\dist\Hearth-$version-windows-$variant.zip"
if (Get-Command iscc.exe -ErrorAction SilentlyContinue) {
    iscc.exe /DVersion=$version /DVariant=$variant packaging\windows\installer.iss
    & powershell -ExecutionPolicy Bypass -File packaging\windows\sign.ps1 "packaging\dist\Hearth-$version-$variant-setup.exe"
} else {
    Write-Host "Inno Setup (iscc.exe) not found: skipping the installer; the zip is portable"
}
