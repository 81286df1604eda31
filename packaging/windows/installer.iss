; Inno Setup script: a per-user install (no admin rights, so drag-and-drop from Explorer works),
; Start menu entry, optional start at login, and a clean uninstall that asks before removing data.
#ifndef Version
  #define Version "0.1.0"
#endif
#ifndef Variant
  #define Variant "cpu"
#endif

[Setup]
AppId={{6C0E5D3A-3F0B-4C55-9E8E-5E3A1D7B9A21}
AppName=Hearth
AppVersion={#Version}
AppPublisher=Hearth
DefaultDirName={autopf}\Hearth
DefaultGroupName=Hearth
PrivilegesRequired=lowest
OutputDir=..\dist
OutputBaseFilename=Hearth-{#Version}-{#Variant}-setup
SetupIconFile=..\build\icons\hearth.ico
UninstallDisplayIcon={app}\Hearth.exe
Compression=lzma2/max
SolidCompression=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
WizardStyle=modern
DisableProgramGroupPage=yes
VersionInfoVersion={#Version}
UninstallDisplayName=Hearth
; Close a running Hearth (it holds its DLLs open) before files are replaced or removed; the
; mutex is the one Hearth.exe holds while it runs (app/ui/shell/single_instance.py), which
; setup and the uninstaller check even where the Restart Manager cannot see the app.
CloseApplications=yes
AppMutex=HearthRunning,Global\HearthRunning
; Windows 10 1809: the oldest Qt 6.12 and Python 3.11 support.
MinVersion=10.0.17763
; The uninstaller is signed too (SmartScreen and Defender judge it like any other exe). ISCC is
; given the "hearth" sign tool by build.ps1 (/Shearth=...) when a certificate is configured;
; without one, build.ps1 defines NoSigning and both stay unsigned.
#ifndef NoSigning
SignTool=hearth
SignedUninstaller=yes
#endif

[InstallDelete]
; An upgrade replaces the whole bundle: files the new version no longer has (a CUDA build's
; ~600 MB of cuBLAS under a CPU install, an old Python's modules) must not stay behind.
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "..\dist\Hearth\*"; DestDir: "{app}"; Flags: recursesubdirs ignoreversion

[Icons]
Name: "{group}\Hearth"; Filename: "{app}\Hearth.exe"
Name: "{autodesktop}\Hearth"; Filename: "{app}\Hearth.exe"; Tasks: desktopicon

[Tasks]
Name: "desktopicon"; Description: "Create a desktop shortcut"; Flags: unchecked
Name: "autostart"; Description: "Start Hearth in the tray when I sign in"; Flags: unchecked

[Registry]
Root: HKCU; Subkey: "Software\Microsoft\Windows\CurrentVersion\Run"; ValueType: string; ValueName: "Hearth"; ValueData: """{app}\Hearth.exe"" --hidden"; Tasks: autostart; Flags: uninsdeletevalue

[Run]
Filename: "{app}\Hearth.exe"; Description: "Start Hearth"; Flags: nowait postinstall skipifsilent

[Code]
// User data (history, calendar) and downloaded models live in %LOCALAPPDATA%\Hearth.
// They are the user's: remove them only when the user says so.
procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
var DataDir: String;
begin
  // Settings > Start at login writes the same Run value the installer's task does; the
  // [Registry] flag removes only what setup itself wrote, so remove it here in every case.
  if CurUninstallStep = usUninstall then
    RegDeleteValue(HKEY_CURRENT_USER, 'Software\Microsoft\Windows\CurrentVersion\Run', 'Hearth');
  if CurUninstallStep = usPostUninstall then begin
    DataDir := ExpandConstant('{localappdata}\Hearth');
    // SuppressibleMsgBox: a silent uninstall (/SUPPRESSMSGBOXES) takes the default, IDNO, so
    // it never blocks and never deletes the user's data. A plain MsgBox would wait forever.
    if DirExists(DataDir) then
      if SuppressibleMsgBox('Also delete your Hearth conversations, calendar and downloaded models?',
                mbConfirmation, MB_YESNO or MB_DEFBUTTON2, IDNO) = IDYES then
        DelTree(DataDir, True, True, True);
  end;
end;
